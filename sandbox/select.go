package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"syscall"
	"time"
)

// SelectOptions configure Select. Zero values mean defaults.
type SelectOptions struct {
	Docker       DockerOptions
	Bwrap        BwrapOptions
	ProbeTimeout time.Duration // engine ping and bwrap check; 0 means 5s
	Logger       *slog.Logger  // nil discards
}

// Closer is implemented by runners holding connections (Docker); callers of
// Select close the runner when it implements it.
type Closer interface{ Close() error }

// Select returns the runner named name: "docker", "bwrap" or "none". With ""
// it returns Docker when the engine answers a ping, else bubblewrap when it
// works here, else an error wrapping ErrNoBackend: it never falls back to
// running unsandboxed. warning is non-empty for "none" (NoneWarning) and when
// "" fell back to bubblewrap; the CLI prints it. A returned *Docker must be
// closed.
func Select(ctx context.Context, name string, opts SelectOptions) (r Runner, warning string, err error) {
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = 5 * time.Second
	}
	opts.Docker.Logger = cmp.Or(opts.Docker.Logger, opts.Logger)
	opts.Bwrap.Logger = cmp.Or(opts.Bwrap.Logger, opts.Logger)
	switch name {
	case "docker":
		d, err := probeDocker(ctx, opts)
		if err != nil {
			return nil, "", fmt.Errorf("%w: %v", ErrNoBackend, err)
		}
		return d, "", nil
	case "bwrap":
		b, err := probeBwrap(ctx, opts)
		if err != nil {
			return nil, "", fmt.Errorf("%w: %v", ErrNoBackend, err)
		}
		return b, "", nil
	case "none":
		return None{}, NoneWarning, nil
	case "":
		d, derr := probeDocker(ctx, opts)
		if derr == nil {
			return d, "", nil
		}
		b, berr := probeBwrap(ctx, opts)
		if berr == nil {
			return b, fmt.Sprintf("sandbox: using bubblewrap (%v); its limits are weaker than Docker's", derr), nil
		}
		return nil, "", fmt.Errorf("%w: docker: %v; bwrap: %v", ErrNoBackend, derr, berr)
	default:
		return nil, "", fmt.Errorf("%w: unknown backend %q (want docker, bwrap or none)", ErrNoBackend, name)
	}
}

func probeDocker(ctx context.Context, opts SelectOptions) (*Docker, error) {
	d, err := NewDocker(opts.Docker)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
	defer cancel()
	if err := d.Ping(pctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func probeBwrap(ctx context.Context, opts SelectOptions) (*Bwrap, error) {
	b, err := NewBwrap(opts.Bwrap)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
	defer cancel()
	if err := b.Check(pctx); err != nil {
		return nil, err
	}
	return b, nil
}

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
