package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/trustlake/trustlake/sandbox"
	"github.com/trustlake/trustlake/tasks/check"
)

// InProcess runs declarative checks in the calling process, without a
// sandbox: it evaluates the same code the trustlake-check binary runs, on
// the host paths of the spec's /task mount and snapshot. It refuses every
// other command, so script verifiers (untrusted code) never run unsandboxed.
// Use it for tests and for declarative tasks when no sandbox is available.
// It is safe for concurrent use.
type InProcess struct{}

// Name returns "inprocess".
func (InProcess) Name() string { return "inprocess" }

// Run evaluates the checks of the task mounted at /task on spec.Snapshot.
func (InProcess) Run(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error) {
	start := time.Now()
	if len(spec.Command) == 0 || spec.Command[0] != CheckBinary {
		return sandbox.Result{}, fmt.Errorf("%w: the in-process runner runs only %s (declarative checks), not %q", sandbox.ErrNoBackend, CheckBinary, spec.Command)
	}
	taskDir := ""
	for _, m := range spec.Mounts {
		if m.Target == TaskMount {
			taskDir = m.Host
		}
	}
	if taskDir == "" || spec.Snapshot == "" {
		return sandbox.Result{}, fmt.Errorf("in-process run: spec needs a %s mount and a snapshot", TaskMount)
	}
	v, err := check.RunTask(ctx, taskDir, spec.Snapshot)
	if err != nil {
		return sandbox.Result{ExitCode: 2, Stderr: []byte(err.Error() + "\n"), Duration: time.Since(start)}, nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return sandbox.Result{}, fmt.Errorf("encode verdict: %w", err)
	}
	return sandbox.Result{Stdout: append(out, '\n'), Duration: time.Since(start)}, nil
}
