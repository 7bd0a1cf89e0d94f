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
	return runHost(ctx, spec, spec.Limits.withDefaults(), spec.Command, spec.Snapshot,
		&syscall.SysProcAttr{Setpgid: true}, "run", false)
}

// runHost runs argv on the host in a process group of its own (attr), with
// spec's timeout and Env (nothing of the host's) and lim's output cap, from
// dir ("" keeps ours); reap kills what the group leaves behind. A non-zero
// exit is not an error; errors start with prefix.
func runHost(ctx context.Context, spec Spec, lim Limits, argv []string, dir string,
	attr *syscall.SysProcAttr, prefix string, reap bool) (Result, error) {
	runCtx, cancel := context.WithTimeout(ctx, spec.timeout())
	defer cancel()
	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Env = append([]string{}, spec.Env...)
	cmd.Dir = dir
	stdout, stderr := &capture{limit: lim.OutputBytes}, &capture{limit: lim.OutputBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = attr
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := Result{Duration: time.Since(start), ExitCode: exitCode(cmd.ProcessState)}
	fill(&res, stdout, stderr)
	if reap && cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // leftovers of the group
	}
	if runCtx.Err() != nil {
		res.TimedOut = ctx.Err() == nil
		if ctx.Err() != nil {
			return res, fmt.Errorf("%s: %w", prefix, ctx.Err())
		}
		return res, nil
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return res, fmt.Errorf("%s: %w", prefix, err)
	}
	return res, nil
}
