package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// NoneWarning is printed by the CLI whenever the none backend is used.
const NoneWarning = "sandbox: backend \"none\" runs verifier code directly on this host without isolation; use it only for code you trust"

// None runs specs directly on the host without isolation. It exists only to be
// asked for by name; Select never picks it on its own. It applies the timeout
// (killing the process group), the output cap and Spec.Env (nothing of the host
// environment); Image, Limits other than OutputBytes, Snapshot and Mounts
// are not applied: the command sees the host file system as it is, and the
// caller passes host paths in Command or Env. It is safe for concurrent use.
type None struct{}

// Name returns "none".
func (None) Name() string { return "none" }

// Run runs spec.Command on the host.
func (None) Run(ctx context.Context, spec Spec) (Result, error) {
	if err := spec.validate(false); err != nil {
		return Result{}, err
	}
	lim := spec.Limits.withDefaults()
	runCtx, cancel := context.WithTimeout(ctx, spec.timeout())
	defer cancel()
	cmd := exec.CommandContext(runCtx, spec.Command[0], spec.Command[1:]...)
	cmd.Env = append([]string{}, spec.Env...)
	if spec.Snapshot != "" {
		cmd.Dir = spec.Snapshot
	}
	stdout, stderr := &capture{limit: lim.OutputBytes}, &capture{limit: lim.OutputBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := Result{Duration: time.Since(start), ExitCode: exitCode(cmd.ProcessState)}
	fill(&res, stdout, stderr)
	if runCtx.Err() != nil {
		res.TimedOut = ctx.Err() == nil
		if ctx.Err() != nil {
			return res, fmt.Errorf("run: %w", ctx.Err())
		}
		return res, nil
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return res, fmt.Errorf("run: %w", err)
	}
	return res, nil
}
