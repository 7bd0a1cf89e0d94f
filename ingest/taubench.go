package ingest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// TauBenchOptions configures DecodeTauBench. Zero values mean defaults.
type TauBenchOptions struct {
	// Domain is the τ-bench domain ("airline", "retail"). "" derives it from
	// the file name: the part after the last '-' of "gpt-4o-airline.json".
	Domain string
	// Benchmark overrides the benchmark name; "" means "tau-bench-<domain>".
	Benchmark string
	// Agent names the agent; "" derives it from the file name: the part
	// before the last '-' ("gpt-4o").
	Agent string
	// Scale is the reward scale: scores are reward/Scale and must end in
	// [0, 1]. 0 means 1.
	Scale float64
	// MaxRecordBytes bounds one record (array element) held in memory; a
	// longer one stops the file with an error. 0 means 64 MiB.
	MaxRecordBytes int
	// SkipBad makes TauBench commit the good records of a batch and report
	// the bad ones in a *Skipped error, instead of committing nothing.
	// DecodeTauBench ignores it (it always emits the good records).
	SkipBad bool
}

func (o TauBenchOptions) withDefaults(file string) TauBenchOptions {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	agent, domain := base, ""
	if i := strings.LastIndexByte(base, '-'); i > 0 {
		agent, domain = base[:i], base[i+1:]
	}
	o.Domain = cmp.Or(o.Domain, domain, "unknown")
	o.Benchmark = cmp.Or(o.Benchmark, "tau-bench-"+o.Domain)
	o.Agent = cmp.Or(o.Agent, agent)
	o.Scale = cmp.Or(o.Scale, 1)
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = maxTauRecord
	}
	return o
}

// DecodeTauBench reads one τ-bench trajectory file (a JSON array of
// {task_id, reward, info, traj, trial}) and calls emit once per accepted
// record with its result row and its trajectory as actions (one per message,
// step = message index, episode_id = result_id =
// "<benchmark>/<agent>/<task_id>/<trial>").
//
// The array is streamed element by element. A bad element is rejected and
// reported as a *schema.RecordError whose Line is the line where the element
// starts; the other elements are still emitted. After the last element
// DecodeTauBench returns the collected errors as RecordErrors (nil when
// none). An error returned by emit stops decoding and is returned as is.
func DecodeTauBench(r io.Reader, file string, opts TauBenchOptions, emit func(schema.Result, []schema.Action) error) error {
	opts = opts.withDefaults(file)
	maxRec := int64(opts.MaxRecordBytes)
	cr := &capReader{r: r, limit: maxRec + tauReadAhead}
	lt := &lineTracker{r: cr}
	dec := json.NewDecoder(lt)
	dec.UseNumber()
	c := &collector{file: file}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		c.add(1, "", schema.Reason(schema.ErrSyntax, "a τ-bench file must be a JSON array of records"))
		return c.err()
	}
	st := tauState{opts: opts, tasks: map[string]taskOrigin{}, keys: map[string]int64{}}
	for {
		// One record may take at most MaxRecordBytes in memory.
		cr.limit = dec.InputOffset() + maxRec + tauReadAhead
		if !dec.More() {
			break
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			reason := schema.Reason(schema.ErrSyntax, "%v", err)
			if errors.Is(err, errRecordTooLong) {
				reason = schema.Reason(schema.ErrTooLong, "a record longer than %d bytes; the rest of the file is not read", maxRec)
			}
			c.add(lt.lineAt(dec.InputOffset()), "", reason)
			return c.err()
		}
		line := lt.lineAt(dec.InputOffset() - int64(len(raw)))
		res, acts, errs := st.record(raw, file, line)
		if len(errs) > 0 {
			for _, e := range errs {
				c.add(line, e.field, e.err)
			}
			continue
		}
		if err := emit(res, acts); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		c.add(lt.lineAt(dec.InputOffset()), "", schema.Reason(schema.ErrSyntax, "%v", err))
	} else if _, err := dec.Token(); err != io.EOF {
		c.add(lt.lineAt(dec.InputOffset()), "", schema.Reason(schema.ErrSyntax, "text after the JSON array"))
	}
	return c.err()
}

// maxTauRecord is the default TauBenchOptions.MaxRecordBytes, as
// maxResultLine bounds a results line; tauReadAhead is how far the JSON
// decoder may read past a record.
const (
	maxTauRecord = 64 << 20
	tauReadAhead = 4 << 10
)

type tauRecord struct {
	TaskID json.RawMessage `json:"task_id"`
	Reward json.RawMessage `json:"reward"`
	Info   *tauInfo        `json:"info"`
	Traj   []tauMessage    `json:"traj"`
	Trial  json.RawMessage `json:"trial"`
}

type tauInfo struct {
	Task       *tauTask        `json:"task"`
	Source     json.RawMessage `json:"source"`
	UserCost   json.RawMessage `json:"user_cost"`
	RewardInfo *tauRewardInfo  `json:"reward_info"`
	Error      *string         `json:"error"`
}

type tauTask struct {
	UserID      string              `json:"user_id"`
	Actions     []schema.GoldAction `json:"actions"`
	Instruction string              `json:"instruction"`
	Outputs     []string            `json:"outputs"`
}

type tauRewardInfo struct {
	Info struct {
		RActions   *float64 `json:"r_actions"`
		ROutputs   *float64 `json:"r_outputs"`
		GTDataHash string   `json:"gt_data_hash"`
	} `json:"info"`
}

type tauMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []tauToolCall   `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Name       string          `json:"name"`
}

type tauToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type fieldErr struct {
	field string
	err   error
}

// tauState carries what must agree across the records of one file.
type tauState struct {
	opts  TauBenchOptions
	tasks map[string]taskOrigin // task_id → identity of its first record
	keys  map[string]int64      // result_id → line
}

func (st *tauState) record(raw json.RawMessage, file string, line int64) (schema.Result, []schema.Action, []fieldErr) {
	var rec tauRecord
	var errs []fieldErr
	bad := func(field string, err error) { errs = append(errs, fieldErr{field, err}) }
	if err := checkJSONText(raw); err != nil {
		bad("", err)
		return schema.Result{}, nil, errs
	}
	if fe, _ := checkKeys(raw); fe != nil {
		bad(fe.Field, fe.Err)
		return schema.Result{}, nil, errs
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			bad(te.Field, schema.Reason(schema.ErrType, "got JSON %s, want %v", te.Value, te.Type))
		} else {
			bad("", schema.Reason(schema.ErrSyntax, "%v", err))
		}
		return schema.Result{}, nil, errs
	}
	taskID, err := intOrStringID(rec.TaskID)
	if err != nil {
		bad("task_id", err)
	}
	var trial int64
	if t, ok := jsonNumber(rec.Trial); len(rec.Trial) == 0 || string(rec.Trial) == "null" {
		bad("trial", schema.ErrMissing)
	} else if !ok {
		bad("trial", schema.Reason(schema.ErrType, "%.40s is not a number", rec.Trial))
	} else if trial, err = t.Int64(); err != nil || trial < 0 {
		bad("trial", schema.Reason(schema.ErrValue, "%s is not a non-negative integer", t))
	}
	var score float64
	if rw, ok := jsonNumber(rec.Reward); len(rec.Reward) == 0 || string(rec.Reward) == "null" {
		bad("reward", schema.ErrMissing)
	} else if !ok {
		bad("reward", schema.Reason(schema.ErrType, "%.40s is not a number", rec.Reward))
	} else if f, err := rw.Float64(); err != nil {
		bad("reward", schema.Reason(schema.ErrValue, "%s is not a finite number", rw))
	} else {
		score = f / st.opts.Scale
		if score < 0 || score > 1 || math.IsNaN(score) {
			bad("reward", schema.Reason(schema.ErrValue, "%s is outside [0, %g]; declare the scale (--scale) if rewards are not in [0, 1]", rw, st.opts.Scale))
		}
	}
	if rec.Info == nil || rec.Info.Task == nil {
		bad("info.task", schema.ErrMissing)
	}
	if len(errs) > 0 {
		return schema.Result{}, nil, errs
	}
	id := fmt.Sprintf("%s/%s/%s/%d", st.opts.Benchmark, st.opts.Agent, taskID, trial)
	task := rec.Info.Task
	fp := taskFingerprint(task)
	if seen, ok := st.tasks[taskID]; ok && seen.fp != fp {
		bad("info.task", schema.Reason(schema.ErrValue, "task %s differs from the task recorded for it at line %d (instruction, user, outputs or gold actions)", taskID, seen.line))
	}
	if prev, ok := st.keys[id]; ok {
		bad("trial", schema.Reason(schema.ErrDuplicate, "task %s trial %d already at line %d", taskID, trial, prev))
	}
	infra := rec.Info.Error
	if infra != nil && strings.TrimSpace(*infra) == "" {
		bad("info.error", schema.Reason(schema.ErrValue, "empty: an infrastructure failure needs its reason"))
	}
	acts, final, aerrs := tauActions(rec.Traj, id, st.opts.Agent, file, line)
	errs = append(errs, aerrs...)
	if final == nil && infra == nil {
		bad("traj", schema.Reason(schema.ErrMissing, "no assistant message with content (the final message is the last one)"))
	}
	if len(errs) > 0 {
		return schema.Result{}, nil, errs
	}
	if _, ok := st.tasks[taskID]; !ok {
		st.tasks[taskID] = taskOrigin{fp: fp, line: line}
	}
	st.keys[id] = line

	g := schema.TauBenchGrader{
		Kind: schema.GraderTauBench, UserID: task.UserID, Outputs: task.Outputs,
		Actions: task.Actions, Finished: rec.Info.RewardInfo != nil,
	}
	if g.Outputs == nil {
		g.Outputs = []string{}
	}
	if g.Actions == nil {
		g.Actions = []schema.GoldAction{}
	}
	if ri := rec.Info.RewardInfo; ri != nil {
		g.RActions, g.ROutputs, g.GTDataHash = ri.Info.RActions, ri.Info.ROutputs, ri.Info.GTDataHash
	}
	grader, _ := json.Marshal(g) // only strings, numbers and valid raw JSON: cannot fail
	extraJSON, _ := json.Marshal(struct {
		Source   json.RawMessage `json:"source,omitempty"`
		UserCost json.RawMessage `json:"user_cost,omitempty"`
	}{rec.Info.Source, rec.Info.UserCost})
	instr := task.Instruction
	epID := id
	res := schema.Result{
		ResultID: id, Benchmark: st.opts.Benchmark, TaskID: taskID, Agent: st.opts.Agent,
		Trial: trial, RecordedScore: score, RecordedPass: score >= 1-1e-9,
		EpisodeID: &epID, FinalMessage: final, Instruction: &instr,
		Grader: string(grader), Infra: infra, Extra: string(extraJSON),
		Provenance: schema.Provenance{SrcFile: file, SrcLine: line},
	}
	if err := res.Validate(); err != nil {
		for _, fe := range schema.SplitFieldErrors(err) {
			bad(fe.Field, fe.Err)
		}
		return schema.Result{}, nil, errs
	}
	return res, acts, nil
}

// jsonNumber returns raw as a number when it is a JSON number literal; a
// string such as "1" is not one (a reward of "1" is not a pass).
func jsonNumber(raw json.RawMessage) (json.Number, bool) {
	r := bytes.TrimSpace(raw)
	if len(r) == 0 || !(r[0] == '-' || r[0] >= '0' && r[0] <= '9') {
		return "", false
	}
	return json.Number(r), true
}

// taskFingerprint identifies a task by what its trials must share.
func taskFingerprint(t *tauTask) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%q\x00%q\x00%q\x00", t.UserID, t.Instruction, t.Outputs)
	for _, a := range t.Actions {
		var buf bytes.Buffer
		if json.Compact(&buf, a.Kwargs) != nil {
			buf.Write(a.Kwargs)
		}
		fmt.Fprintf(h, "%q\x00%s\x00", a.Name, buf.Bytes())
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
