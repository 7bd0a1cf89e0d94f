package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/sandbox"
	"github.com/trustlake/trustlake/schema"
)

// Errors that make a verification yield no label.
var (
	// ErrVerifier means the verifier crashed, timed out, hit a limit or
	// printed something that is not a verdict.
	ErrVerifier = errors.New("verifier error")
	// ErrNondeterministic means two runs on the same state disagreed.
	ErrNondeterministic = errors.New("verifier is nondeterministic")
)

// Output is a verifier's verdict as printed on stdout (the gt.json shape;
// GTFile writes it with diagnostics and gates always present).
type Output struct {
	Pass        bool            `json:"pass"`
	Category    *string         `json:"category"`
	Diagnostics json.RawMessage `json:"diagnostics"`
	Gates       []schema.Gate   `json:"gates"`
	Score       *float64        `json:"score,omitempty"`
}

// CategoryString returns the category or "".
func (o *Output) CategoryString() string {
	if o.Category == nil {
		return ""
	}
	return *o.Category
}

// spec builds the sandbox spec that verifies the state at snapshot. For
// declarative tasks, a non-empty checkBin (host path of a static
// trustlake-check) is mounted over CheckBinary: bubblewrap needs it, and it
// lets Docker runs use a freshly built binary.
func (t *Task) spec(snapshot, checkBin string) sandbox.Spec {
	cmd := []string{CheckBinary, TaskMount, SnapshotMount}
	if !t.Declarative() {
		cmd = t.Verifier.Command
	}
	s := sandbox.Spec{
		Image:    t.ImageName(),
		Command:  append([]string(nil), cmd...),
		Snapshot: snapshot,
		Mounts:   []sandbox.Mount{{Host: t.Dir, Target: TaskMount}},
		Timeout:  t.TimeoutDuration(),
	}
	if checkBin != "" && t.Declarative() {
		s.Mounts = append(s.Mounts, sandbox.Mount{Host: checkBin, Target: CheckBinary})
	}
	return s
}

// parseOutput reads the verifier's stdout: one JSON object, nothing else.
func parseOutput(stdout []byte) (Output, error) {
	dec := json.NewDecoder(bytes.NewReader(stdout))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return Output{}, fmt.Errorf("%w: stdout is not a JSON object: %v", ErrVerifier, err)
	}
	if dec.More() {
		return Output{}, fmt.Errorf("%w: stdout holds more than one JSON value", ErrVerifier)
	}
	if _, ok := raw["pass"]; !ok {
		return Output{}, fmt.Errorf("%w: output has no \"pass\"", ErrVerifier)
	}
	var o Output
	if err := json.Unmarshal(stdout, &o); err != nil {
		return Output{}, fmt.Errorf("%w: %v", ErrVerifier, err)
	}
	if o.Pass && o.Category != nil {
		return Output{}, fmt.Errorf("%w: a passing verdict has category %q", ErrVerifier, *o.Category)
	}
	if !o.Pass && (o.Category == nil || *o.Category == "") {
		return Output{}, fmt.Errorf("%w: a failing verdict has no category", ErrVerifier)
	}
	for i, g := range o.Gates {
		if g.ID == "" {
			return Output{}, fmt.Errorf("%w: gates[%d].id: missing", ErrVerifier, i)
		}
		if !slices.Contains(schema.GateTypes, g.Type) {
			return Output{}, fmt.Errorf("%w: gates[%d].type: %q not one of %s", ErrVerifier, i, g.Type, strings.Join(schema.GateTypes, ", "))
		}
	}
	if len(o.Diagnostics) == 0 {
		o.Diagnostics = json.RawMessage("null")
	}
	return o, nil
}

// canonical re-encodes an output so that two runs compare independent of
// key order and spacing.
func canonical(o Output) string {
	var diag any
	_ = json.Unmarshal(o.Diagnostics, &diag)
	b, _ := json.Marshal(struct {
		Pass        bool          `json:"pass"`
		Category    *string       `json:"category"`
		Diagnostics any           `json:"diagnostics"`
		Gates       []schema.Gate `json:"gates"`
		Score       *float64      `json:"score"`
	}{o.Pass, o.Category, diag, o.Gates, o.Score})
	return string(b)
}

// runOnce runs the verifier once and parses its verdict.
func runOnce(ctx context.Context, r Runner, t *Task, snapshot, checkBin string) (Output, error) {
	res, err := r.Run(ctx, t.spec(snapshot, checkBin))
	if err != nil {
		if ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		return Output{}, fmt.Errorf("%w: run: %v", ErrVerifier, err)
	}
	switch {
	case res.TimedOut:
		return Output{}, fmt.Errorf("%w: timed out after %s", ErrVerifier, t.TimeoutDuration())
	case res.OOMKilled:
		return Output{}, fmt.Errorf("%w: killed for using too much memory", ErrVerifier)
	case res.OutputTruncated: // spec sets no limits: the default cap applies
		return Output{}, fmt.Errorf("%w: output truncated: stdout or stderr over the %d-byte cap (a verdict is one small JSON object)",
			ErrVerifier, sandbox.DefaultOutputBytes)
	case res.ExitCode != 0:
		return Output{}, fmt.Errorf("%w: exit code %d: %s", ErrVerifier, res.ExitCode, tail(res.Stderr))
	}
	return parseOutput(res.Stdout)
}

// DefaultRuns is how many times a verifier runs per snapshot (seed §3.2:
// "must give the same answer twice").
const DefaultRuns = 2

// UnnoticedCoinFlip is the probability that a verifier whose verdict is a
// fair coin flip gives the same verdict in all of runs independent runs,
// and so passes the determinism check on one snapshot: 2^(1−runs).
func UnnoticedCoinFlip(runs int) float64 {
	return math.Pow(2, float64(1-max(runs, 1)))
}

// runN runs the verifier runs times (each run a fresh sandbox; runs < 2
// means DefaultRuns) and returns the output when every run agrees.
func runN(ctx context.Context, r Runner, t *Task, snapshot, checkBin string, runs int) (Output, error) {
	if runs < 2 {
		runs = DefaultRuns
	}
	var first Output
	var want string
	for i := 1; i <= runs; i++ {
		o, err := runOnce(ctx, r, t, snapshot, checkBin)
		if err != nil {
			return Output{}, fmt.Errorf("run %d of %d: %w", i, runs, err)
		}
		if got := canonical(o); i == 1 {
			first, want = o, got
		} else if got != want {
			return Output{}, fmt.Errorf("%w: run 1 %s, run %d %s", ErrNondeterministic, want, i, got)
		}
	}
	return first, nil
}

// tail returns the last line-ish part of stderr for an error message.
func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	if s == "" {
		return "(no stderr)"
	}
	return s
}
