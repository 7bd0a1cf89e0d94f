package schema

import (
	"math"
	"strings"
	"unicode/utf8"
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

// maxIDLen bounds identifiers and partition values.
const maxIDLen = 512

// checkID validates an identifier used as a key or partition value.
func checkID(field, v string) *FieldError {
	if v != "" && len(v) <= maxIDLen && printableASCII(v) {
		return nil // the common case, in one pass
	}
	switch {
	case v == "":
		return fieldErr(field, ErrMissing, "")
	case len(v) > maxIDLen:
		return fieldErr(field, ErrValue, "longer than %d bytes", maxIDLen)
	case !utf8.ValidString(v):
		return fieldErr(field, ErrEncoding, "")
	case strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return fieldErr(field, ErrValue, "control character in %q", v)
	}
	return nil
}

// printableASCII reports whether s holds only bytes 0x20..0x7e: valid
// UTF-8 without control characters.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// ValidID reports whether v passes the checks of an identifier (such as
// an episode_id) in the Validate methods.
func ValidID(v string) bool {
	return v != "" && len(v) <= maxIDLen && printableASCII(v) || checkID("", v) == nil
}

// ValidPartition reports whether v passes the checks of a partition value
// (such as a verdict's judge or condition) in the Validate methods:
// decoders remember it for values they meet again.
func ValidPartition(v string) bool { return checkPartition("", v) == nil }

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

// encodedLen is the length of v percent-encoded as lake folder names are:
// every byte outside [A-Za-z0-9._-] takes three.
func encodedLen(v string) int {
	n := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			n++
		} else {
			n += 3
		}
	}
	return n
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
	if !oneOf(v, set) {
		return fieldErr(field, ErrValue, "%q is not one of %s", v, strings.Join(set, ", "))
	}
	return nil
}

// collect returns nil, the one non-nil error, or FieldErrors holding every
// non-nil error in order: a record reports all its bad fields at once.
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

// Validate checks an action row; it returns a *FieldError or nil.
func (a *Action) Validate() error {
	var stepErr *FieldError
	if a.Step < 0 {
		stepErr = fieldErr("step", ErrValue, "%d is negative", a.Step)
	}
	return collect(checkID("episode_id", a.EpisodeID), checkPartition("agent", a.Agent), stepErr)
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
		hashErr = checkID("verifier_sha256", g.VerifierSHA256)
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
		checkFinite("score", g.Score),
		checkUnit("score", g.Score),
	)
}

// Validate checks a label row; it returns a *FieldError or nil.
func (l *Label) Validate() error {
	var catErr *FieldError
	if l.CategoryRaw == "" {
		catErr = fieldErr("category", ErrMissing, "")
	}
	return collect(checkID("episode_id", l.EpisodeID), catErr)
}

// Validate checks a verdict row; it returns a *FieldError or nil.
// A verdict may be null only for a score-only judge (a score is present).
func (v *Verdict) Validate() error {
	var verdictErr, runErr, confErr *FieldError
	switch {
	case v.Verdict == nil && v.Score == nil:
		verdictErr = fieldErr("verdict", ErrMissing, "null verdict needs a score (score-only judge)")
	case v.Verdict != nil:
		verdictErr = checkOneOf("verdict", *v.Verdict, Verdicts)
	}
	if v.Run < 1 {
		runErr = fieldErr("run", ErrValue, "%d is not a run number (1, 2, ...)", v.Run)
	}
	if v.Confidence != nil && (*v.Confidence < 0 || *v.Confidence > 1) {
		confErr = fieldErr("confidence", ErrValue, "%v is outside [0, 1]", *v.Confidence)
	}
	return collect(
		checkID("episode_id", v.EpisodeID),
		checkPartition("judge", v.Judge),
		checkPartition("condition", v.Condition),
		runErr,
		verdictErr,
		checkFinite("score", v.Score),
		checkFinite("confidence", v.Confidence),
		confErr,
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
