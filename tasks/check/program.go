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

// LoadProgram reads and validates taskDir/task.json. Errors name the file
// and the field: "task.json: checks[2].cell: invalid check: ...".
func LoadProgram(taskDir string) (Program, error) {
	name := filepath.Join(taskDir, "task.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return Program{}, fmt.Errorf("read task: %w", err)
	}
	var p Program
	if err := json.Unmarshal(data, &p); err != nil {
		return Program{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := p.Validate(); err != nil {
		return Program{}, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// Validate checks the specs and the score mode.
func (p Program) Validate() error {
	var err error
	if p.Score != "" && p.Score != ScoreWeighted {
		err = fmt.Errorf("score: %w: %q (want %q or nothing)", ErrSpec, p.Score, ScoreWeighted)
	}
	return errors.Join(err, Validate(p.Checks))
}

// Run evaluates the program on the final state; the initial state is
// taskDir/initial when that folder exists.
func (p Program) Run(ctx context.Context, taskDir, final string) Verdict {
	// An unreadable initial/ stays set: the checks report it.
	env := Env{Final: final, Initial: filepath.Join(taskDir, "initial")}
	if st, err := os.Stat(env.Initial); errors.Is(err, fs.ErrNotExist) || err == nil && !st.IsDir() {
		env.Initial = ""
	}
	return Evaluate(ctx, p.Checks, env, Options{Score: p.Score == ScoreWeighted})
}

// RunTask loads taskDir/task.json and evaluates it on the final state. It is
// what the trustlake-check binary does inside the sandbox.
func RunTask(ctx context.Context, taskDir, final string) (Verdict, error) {
	p, err := LoadProgram(taskDir)
	if err != nil {
		return Verdict{}, err
	}
	if st, err := os.Stat(final); err != nil || !st.IsDir() {
		return Verdict{}, fmt.Errorf("final state %s: not a directory", final)
	}
	return p.Run(ctx, taskDir, final), nil
}
