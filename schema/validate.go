package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FieldError is a validation failure of one field of one row; ingest adds
// the file and line to make a RecordError.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(field string, sentinel error, format string, args ...any) *FieldError {
	if format == "" {
		return &FieldError{Field: field, Err: sentinel}
	}
	return &FieldError{Field: field, Err: Reason(sentinel, format, args...)}
}

// MaxPartitionBytes bounds a partition value once percent-encoded for its
// hive folder name ("judge=<value>"): file systems refuse names longer than
// 255 bytes, and the column name needs room too.
const MaxPartitionBytes = 200

// checkPartition validates a value that names a partition folder: an
// identifier whose folder name fits the file system.
func checkPartition(field, v string) *FieldError {
	if err := checkID(field, v); err != nil {
		return err
	}
	if 3*len(v) <= MaxPartitionBytes {
		return nil // fits even if every byte is encoded: no need to count
	}
	if n := encodedLen(v); n > MaxPartitionBytes {
		return fieldErr(field, ErrValue, "%d bytes once encoded as a folder name (%d bytes of text); a partition value may take at most %d", n, len(v), MaxPartitionBytes)
	}
	return nil
}

// encodedLen is len(EncodePartitionValue(v)) without building it: every
// byte outside [A-Za-z0-9._-] takes three. checkPartition runs on every
// row, so it must not allocate.
func encodedLen(v string) int {
	n := 0
	for i := 0; i < len(v); i++ {
		if c := v[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			n++
		} else {
			n += 3
		}
	}
	return n
}

// EncodePartitionValue percent-encodes v for a hive folder name: every byte
// outside [A-Za-z0-9._-] becomes %XX, as DuckDB does.
func EncodePartitionValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// checkUnit rejects a number outside [0, 1].
func checkUnit(field string, p *float64) *FieldError {
	if p != nil && (*p < 0 || *p > 1) {
		return fieldErr(field, ErrValue, "%v is outside [0, 1]", *p)
	}
	return nil
}

func checkFinite(field string, p *float64) *FieldError {
	if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
		return fieldErr(field, ErrValue, "%v is not a finite number", *p)
	}
	return nil
}

func checkOneOf(field, v string, set []string) *FieldError {
	if !slices.Contains(set, v) {
		return fieldErr(field, ErrValue, "%q is not one of %s", v, strings.Join(set, ", "))
	}
	return nil
}

// collect returns nil, the one non-nil error, or FieldErrors holding every
// non-nil error in order: a record reports all its bad fields at once.
// It copies the errors out so that the variadic slice does not escape: a
// valid record (every call on ingest's per-row path) allocates nothing.
func collect(errs ...*FieldError) error {
	var out FieldErrors
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

// FieldErrors is every field error of one record, in field order.
type FieldErrors []*FieldError

func (e FieldErrors) Error() string {
	msgs := make([]string, len(e))
	for i, fe := range e {
		msgs[i] = fe.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap exposes each field error to errors.Is and errors.As.
func (e FieldErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, fe := range e {
		out[i] = fe
	}
	return out
}

// SplitFieldErrors returns the field errors err holds: every one of a
// FieldErrors, the *FieldError itself, or nil for any other error.
func SplitFieldErrors(err error) []*FieldError {
	switch e := err.(type) {
	case FieldErrors:
		return e
	case *FieldError:
		return []*FieldError{e}
	}
	return nil
}

// Validate checks an episode row; it returns a *FieldError or nil.
func (e *Episode) Validate() error {
	var stepsErr *FieldError
	if e.NSteps != nil && *e.NSteps < 0 {
		stepsErr = fieldErr("n_steps", ErrValue, "%d is negative", *e.NSteps)
	}
	return collect(
		checkID("episode_id", e.EpisodeID),
		checkID("task_id", e.TaskID),
		checkOneOf("source", e.Source, Sources),
		checkPartition("agent.name", e.Agent),
		stepsErr,
	)
}

// Validate checks an action row; it returns a *FieldError or nil. A tool
// call's arguments are JSON text (an object written inline, or a string
// holding JSON as chat APIs send it).
func (a *Action) Validate() error {
	var stepErr *FieldError
	if a.Step < 0 {
		stepErr = fieldErr("step", ErrValue, "%d is negative", a.Step)
	}
	var argsErr *FieldError
	if a.Arguments != nil && !json.Valid([]byte(*a.Arguments)) {
		argsErr = fieldErr("arguments", ErrSyntax, "not valid JSON: %.60q", *a.Arguments)
	}
	return collect(checkID("episode_id", a.EpisodeID), checkPartition("agent", a.Agent), stepErr, argsErr)
}

// NormalizeCategory splits a raw category into a known code (or nil) and
// the raw string. Unknown codes are kept raw and count as "needs review".
func NormalizeCategory(raw *string) (cat, keep *string) {
	if raw == nil || *raw == "" {
		return nil, nil
	}
	c := strings.TrimSpace(*raw)
	if IsCategory(c) {
		return &c, raw
	}
	return nil, raw
}

// Validate checks a ground-truth row; it returns a *FieldError or nil.
// A verifier's row needs its verifier hash; a human judgment needs its
// annotator and needs no hash.
func (g *GroundTruth) Validate() error {
	var srcErr, hashErr, annErr *FieldError
	switch g.Source {
	case "", GTVerifier:
		hashErr = checkSHA256("verifier_sha256", g.VerifierSHA256)
		if g.Annotator != nil {
			annErr = fieldErr("annotator", ErrValue, "only human ground truth (source human) has an annotator")
		}
	case GTHuman:
		if g.Annotator == nil {
			annErr = fieldErr("annotator", ErrMissing, "human ground truth names its annotator")
		} else {
			annErr = checkID("annotator", *g.Annotator)
		}
	default:
		srcErr = checkOneOf("source", g.Source, []string{GTVerifier, GTHuman})
	}
	return collect(
		checkID("episode_id", g.EpisodeID),
		srcErr, hashErr, annErr,
		checkGates(g.Gates, g.Pass),
		checkFinite("score", g.Score),
		checkUnit("score", g.Score),
	)
}

// checkGates validates a ground truth's gates (a JSON array of Gate, "[]"
// or "" when none): each id once, and no pass with a failed critical gate
// (a critical gate zeroes the score, seed 004 D1).
func checkGates(gates string, pass bool) *FieldError {
	if gates == "" || gates == "[]" {
		return nil
	}
	var gs []Gate
	if err := json.Unmarshal([]byte(gates), &gs); err != nil {
		return fieldErr("gates", ErrType, "%v", err)
	}
	seen := make(map[string]bool, len(gs))
	for i, g := range gs {
		if seen[g.ID] {
			return fieldErr("gates["+strconv.Itoa(i)+"].id", ErrDuplicate, "gate %q appears twice", g.ID)
		}
		seen[g.ID] = true
		if pass && g.Type == GateCritical && !g.Passed {
			return fieldErr("pass", ErrValue, "true, but critical gate %q failed", g.ID)
		}
	}
	return nil
}

// annotatorErr checks an optional annotator name as an identifier.
func annotatorErr(a *string) *FieldError {
	if a == nil {
		return nil
	}
	return checkID("annotator", *a)
}

// Validate checks a label row; it returns a *FieldError or nil.
func (l *Label) Validate() error {
	var catErr *FieldError
	if l.CategoryRaw == "" {
		catErr = fieldErr("category", ErrMissing, "")
	}
	return collect(checkID("episode_id", l.EpisodeID), catErr, annotatorErr(l.Annotator))
}

// Validate checks a verdict row; it returns a *FieldError or nil.
// A verdict may be null only for a score-only judge (a score is present).
func (v *Verdict) Validate() error {
	var verdictErr, runErr *FieldError
	switch {
	case v.Verdict == nil && v.Score == nil:
		verdictErr = fieldErr("verdict", ErrMissing, "null verdict needs a score (score-only judge)")
	case v.Verdict != nil:
		verdictErr = checkOneOf("verdict", *v.Verdict, Verdicts)
	}
	if v.Run < 1 {
		runErr = fieldErr("run", ErrValue, "%d is not a run number (1, 2, ...)", v.Run)
	}
	return collect(
		checkID("episode_id", v.EpisodeID),
		checkPartition("judge", v.Judge),
		checkPartition("condition", v.Condition),
		runErr,
		verdictErr,
		checkFinite("score", v.Score),
		checkFinite("confidence", v.Confidence),
		checkUnit("confidence", v.Confidence),
	)
}

// Validate checks an evidence row; it returns a *FieldError or nil.
func (e *Evidence) Validate() error {
	var shaErr *FieldError
	if len(e.PackSHA256) != 64 {
		shaErr = fieldErr("pack_sha256", ErrValue, "%q is not a hex sha256", e.PackSHA256)
	}
	return collect(checkID("episode_id", e.EpisodeID), checkID("condition", e.Condition), shaErr)
}

// Validate checks a result row; it returns a *FieldError or nil.
// Scores must lie in [0, 1]; rescale other scales before ingest.
func (r *Result) Validate() error {
	var scoreErr *FieldError
	s := r.RecordedScore
	if math.IsNaN(s) || math.IsInf(s, 0) {
		scoreErr = fieldErr("recorded_score", ErrValue, "%v is not a finite number", s)
	} else if s < 0 || s > 1 {
		scoreErr = fieldErr("recorded_score", ErrValue, "%v is outside [0, 1] (declare a scale to rescale)", s)
	}
	return collect(
		checkID("result_id", r.ResultID),
		checkPartition("benchmark", r.Benchmark),
		checkID("task_id", r.TaskID),
		checkID("agent", r.Agent),
		scoreErr,
	)
}
