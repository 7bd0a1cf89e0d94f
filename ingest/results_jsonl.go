package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// maxResultLine bounds one JSONL line of a results file.
const maxResultLine = 64 << 20

// resultFields are the documented keys of a results line; other keys are
// kept in Result.Extra.
var resultFields = []string{
	"result_id", "benchmark", "task_id", "agent", "trial", "score", "scale",
	"pass", "episode_id", "final_message", "instruction", "grader", "infra_error",
}

// DecodeResults reads recorded benchmark results as JSONL, one JSON object
// per line, and calls emit once per accepted line. Blank lines are skipped.
//
//	{"benchmark":"ale","task_id":"t07","agent":"sonnet","trial":0,"score":0.8,
//	 "pass":false,"final_message":"All tests pass.","grader":{"kind":"outputs","outputs":["42"]}}
//
// Keys: benchmark, task_id, agent (non-empty strings) and trial (integer
// ≥ 0) are required, and so is score (a number). scale (> 0, default 1)
// declares the score's scale: the stored score is score/scale and must lie
// in [0, 1], so a score outside [0, 1] without a scale is rejected. pass
// (bool) defaults to score/scale == 1. result_id defaults to
// "<benchmark>/<agent>/<task_id>/<trial>". Optional: episode_id (the lake
// episode holding the trajectory), final_message, instruction, grader (a JSON
// object; see schema.TauBenchGrader and schema.OutputsGrader for the kinds
// the Trust Layer re-runs; default {}), infra_error (set when the run failed
// for infrastructure reasons). Unknown keys are kept in Result.Extra.
//
// A bad line is reported as a *schema.RecordError "file:line: field:
// reason" and skipped; so is a second line with the same result_id, and a
// line whose instruction differs from an earlier line of the same benchmark
// and task (trials that disagree on task identity). After the last line the
// collected errors are returned as RecordErrors (at most 100, then a count).
// An error returned by emit stops decoding and is returned as is.
func DecodeResults(r io.Reader, file string, emit func(schema.Result) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	c := &collector{file: file}
	chk := newResultChecker()
	var lineNo, records int64
	for {
		line, tooLong, err := readLine(br, maxResultLine)
		if len(line) == 0 && err != nil {
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("read %s: %w", file, err)
			}
			break
		}
		lineNo++
		if tooLong {
			c.add(lineNo, "", schema.Reason(schema.ErrTooLong, "longer than %d bytes", maxResultLine))
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		res, ferrs := chk.decode(line, lineNo)
		for _, e := range ferrs {
			c.add(lineNo, e.field, e.err)
		}
		if len(ferrs) > 0 {
			continue
		}
		res.Provenance = schema.Provenance{SrcFile: file, SrcLine: lineNo}
		records++
		if err := emit(res); err != nil {
			return err
		}
		if err != nil {
			break
		}
	}
	if records == 0 && len(c.errs) == 0 {
		c.add(0, "", errNoRecords)
	}
	return c.err()
}

type instrSeen struct {
	text string
	line int64
}

// resultChecker holds what must agree across the results of one input (a
// file, or the records of one `ingest sql` query): result ids are unique,
// and every trial of a (benchmark, task) has the same instruction.
type resultChecker struct {
	ids   map[string]int64
	instr map[[2]string]instrSeen
}

func newResultChecker() *resultChecker {
	return &resultChecker{ids: map[string]int64{}, instr: map[[2]string]instrSeen{}}
}

// decode decodes one results line (decodeResultLine) and checks it against
// the results seen before, remembering it when it has no errors.
func (c *resultChecker) decode(b []byte, line int64) (res schema.Result, ferrs []fieldErr) {
	if res, ferrs = decodeResultLine(b); len(ferrs) > 0 {
		return res, ferrs
	}
	if prev, ok := c.ids[res.ResultID]; ok {
		ferrs = append(ferrs, fieldErr{"result_id", schema.Reason(schema.ErrDuplicate, "%q already at line %d", res.ResultID, prev)})
	}
	k := [2]string{res.Benchmark, res.TaskID}
	if res.Instruction != nil {
		if seen, ok := c.instr[k]; ok && seen.text != *res.Instruction {
			ferrs = append(ferrs, fieldErr{"instruction", schema.Reason(schema.ErrValue,
				"task %s has a different instruction at line %d: trials disagree on task identity", res.TaskID, seen.line)})
		}
	}
	if len(ferrs) > 0 {
		return res, ferrs
	}
	c.ids[res.ResultID] = line
	if _, ok := c.instr[k]; !ok && res.Instruction != nil {
		c.instr[k] = instrSeen{*res.Instruction, line}
	}
	return res, nil
}

// readLine returns the next line without its newline. When the line is
// longer than max it is consumed and tooLong is set.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if tooLong {
			return nil, true, err
		}
		return line, false, err
	}
}

func decodeResultLine(line []byte) (schema.Result, []fieldErr) {
	var errs []fieldErr
	bad := func(field string, err error) { errs = append(errs, fieldErr{field, err}) }
	if err := checkJSONText(line); err != nil {
		bad("", err)
		return schema.Result{}, errs
	}
	var obj map[string]json.RawMessage
	// Unmarshal, not a Decoder: text after the object is an error.
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		if err == nil {
			err = errors.New("not a JSON object")
		}
		bad("", schema.Reason(schema.ErrSyntax, "%v", err))
		return schema.Result{}, errs
	}
	if fe, _ := checkKeys(line); fe != nil {
		bad(fe.Field, fe.Err)
		return schema.Result{}, errs
	}
	str := func(key string, required bool) *string {
		raw, ok := obj[key]
		if !ok || string(raw) == "null" {
			if required {
				bad(key, schema.ErrMissing)
			}
			return nil
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			bad(key, schema.Reason(schema.ErrType, "got %.40s, want a string", raw))
			return nil
		}
		if required && s == "" {
			bad(key, schema.Reason(schema.ErrValue, "empty"))
			return nil
		}
		return &s
	}
	num := func(key string) *float64 {
		raw, ok := obj[key]
		if !ok || string(raw) == "null" {
			return nil
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || raw[0] == '"' {
			bad(key, schema.Reason(schema.ErrType, "got %.40s, want a number", raw))
			return nil
		}
		return &f
	}
	var res schema.Result
	bench, task, agent := str("benchmark", true), str("task_id", true), str("agent", true)
	trial := num("trial")
	if _, ok := obj["trial"]; !ok {
		bad("trial", schema.ErrMissing)
	} else if trial != nil && (*trial < 0 || *trial != math.Trunc(*trial)) {
		bad("trial", schema.Reason(schema.ErrValue, "%g is not a non-negative integer", *trial))
	}
	score := num("score")
	if _, ok := obj["score"]; !ok {
		bad("score", schema.ErrMissing)
	}
	scale := num("scale")
	if scale != nil && !(*scale > 0) {
		bad("scale", schema.Reason(schema.ErrValue, "%g is not positive", *scale))
		scale = nil
	}
	var pass *bool
	if raw, ok := obj["pass"]; ok && string(raw) != "null" {
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			bad("pass", schema.Reason(schema.ErrType, "got %.40s, want true or false", raw))
		} else {
			pass = &b
		}
	}
	res.EpisodeID = str("episode_id", false)
	res.FinalMessage = str("final_message", false)
	res.Instruction = str("instruction", false)
	res.Infra = str("infra_error", false)
	if res.Infra != nil && strings.TrimSpace(*res.Infra) == "" {
		bad("infra_error", schema.Reason(schema.ErrValue, "empty: give the failure's reason, or leave the key out (or null) for a valid run"))
		res.Infra = nil
	}
	res.Grader = "{}"
	if raw, ok := obj["grader"]; ok && string(raw) != "null" {
		if bytes.TrimSpace(raw)[0] != '{' {
			bad("grader", schema.Reason(schema.ErrType, "want a JSON object"))
		} else {
			var buf bytes.Buffer
			_ = json.Compact(&buf, raw)
			res.Grader = buf.String()
		}
	}
	if score != nil {
		s := *score
		if scale != nil {
			s /= *scale
		}
		if s < 0 || s > 1 || math.IsNaN(s) {
			if scale == nil {
				bad("score", schema.Reason(schema.ErrValue, "%g is outside [0, 1] and no scale is declared", *score))
			} else {
				bad("score", schema.Reason(schema.ErrValue, "%g/%g is outside [0, 1]", *score, *scale))
			}
		}
		res.RecordedScore = s
	}
	if len(errs) > 0 {
		return schema.Result{}, errs
	}
	res.Benchmark, res.TaskID, res.Agent, res.Trial = *bench, *task, *agent, int64(*trial)
	res.RecordedPass = res.RecordedScore >= 1-1e-9
	if pass != nil {
		res.RecordedPass = *pass
	}
	if id := str("result_id", false); id != nil && *id != "" {
		res.ResultID = *id
	} else {
		res.ResultID = fmt.Sprintf("%s/%s/%s/%d", res.Benchmark, res.Agent, res.TaskID, res.Trial)
	}
	for _, k := range resultFields {
		delete(obj, k)
	}
	extra, _ := json.Marshal(obj)
	res.Extra = string(extra)
	if err := res.Validate(); err != nil {
		for _, fe := range schema.SplitFieldErrors(err) {
			bad(fe.Field, fe.Err)
		}
		return schema.Result{}, errs
	}
	return res, errs
}
