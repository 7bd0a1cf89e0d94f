package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ScoreWeighted in task.json's "score" makes the verdict carry a partial
// score: the weighted share of gating checks that hold.
const ScoreWeighted = "weighted"

// Program is the part of task.json the checker needs: the checks and the
// score mode. Other task.json fields are ignored here (package tasks reads
// them).
type Program struct {
	Checks []Spec `json:"checks"`
	Score  string `json:"score,omitempty"`
}

// Validate checks the specs and the score mode.
func (p Program) Validate() error {
	var err error
	if p.Score != "" && p.Score != ScoreWeighted {
		err = fmt.Errorf("score: %w: %q (want %q or nothing)", ErrSpec, p.Score, ScoreWeighted)
	}
	return errors.Join(err, Validate(p.Checks))
}

// RunTask loads and validates taskDir/task.json and evaluates it on the
// final state; the initial state is taskDir/initial when that folder exists.
// Errors name the file and the field: "task.json: checks[2].cell: invalid
// check: ...". It is what the trustlake-check binary does inside the sandbox.
func RunTask(ctx context.Context, taskDir, final string) (Verdict, error) {
	name := filepath.Join(taskDir, "task.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return Verdict{}, fmt.Errorf("read task: %w", err)
	}
	var p Program
	if err := json.Unmarshal(data, &p); err != nil {
		return Verdict{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.Validate(); err != nil {
		return Verdict{}, fmt.Errorf("%s: %w", name, err)
	}
	if st, err := os.Stat(final); err != nil || !st.IsDir() {
		return Verdict{}, fmt.Errorf("final state %s: not a directory", final)
	}
	// An unreadable initial/ stays set: the checks report it.
	env := Env{Final: final, Initial: filepath.Join(taskDir, "initial")}
	if st, err := os.Stat(env.Initial); errors.Is(err, fs.ErrNotExist) || err == nil && !st.IsDir() {
		env.Initial = ""
	}
	return Evaluate(ctx, p.Checks, env, p.Score == ScoreWeighted), nil
}
