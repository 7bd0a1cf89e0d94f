package tasks

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/sandbox"
)

// OptionError is a mistake in the options a command gave (a usage error):
// Msg says what, Hint what to try.
type OptionError struct{ Msg, Hint string }

func (e *OptionError) Error() string { return e.Msg }

// UsageHint is what to try instead.
func (e *OptionError) UsageHint() string { return e.Hint }

// Runner runs verifiers: a sandbox backend, or InProcess.
type Runner interface {
	Run(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error)
}

// RunnerName names the sandbox r stands for ("none" in process).
func RunnerName(r Runner) string {
	if n, ok := r.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "none"
}

// RunnerOptions choose the sandbox verifiers run in.
type RunnerOptions struct {
	Sandbox     string   // docker, bwrap, none; "": docker, else bwrap
	CheckBinary string   // host path of a static trustlake-check ("": none given)
	Labels      []string // KEY=VALUE labels on every Docker container
	Logger      *slog.Logger
	Notice      func(string) // prints one line for the user
}

// OpenRunner selects the sandbox backend. "none" never runs verifier code
// on the host: it evaluates declarative checks in process (InProcess) and
// refuses script verifiers. It returns the runner, the check binary to pass
// to the flows (a private copy of o.CheckBinary) and a func that releases
// the backend.
func OpenRunner(ctx context.Context, o RunnerOptions) (Runner, string, func(), error) {
	if o.Sandbox == "none" {
		o.Notice("sandbox none: declarative checks run in this process; script verifiers are refused")
		return InProcess{}, o.CheckBinary, func() {}, nil
	}
	labels := map[string]string{}
	for _, kv := range o.Labels {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, "", nil, &OptionError{Msg: fmt.Sprintf("--sandbox-label %q: want KEY=VALUE", kv), Hint: "--sandbox-label run=nightly-42"}
		}
		labels[k] = v
	}
	deadline := deadlineBinary(o.CheckBinary)
	release, opened := func() {}, false // release frees what is open so far
	defer func() {
		if !opened {
			release()
		}
	}()
	if deadline != "" {
		// Mount a private copy: the host path stays out of the sandbox.
		cp, cleanup, err := PrivateCopy(deadline)
		if err != nil {
			return nil, "", nil, err
		}
		if deadline == o.CheckBinary {
			o.CheckBinary = cp
		}
		deadline, release = cp, cleanup
	}
	r, warning, err := sandbox.Select(ctx, o.Sandbox, sandbox.SelectOptions{Docker: sandbox.DockerOptions{Labels: labels, DeadlineBinary: deadline}, Logger: o.Logger})
	if err != nil {
		return nil, "", nil, &OptionError{Msg: err.Error(), Hint: "trustlake tasks check --sandbox none (declarative tasks only)"}
	}
	if warning != "" {
		o.Notice(warning)
	}
	if cl, ok := r.(sandbox.Closer); ok {
		removeCopy := release
		release = func() {
			cl.Close()
			removeCopy()
		}
	}
	if r.Name() == "bwrap" && o.CheckBinary == "" {
		return nil, "", nil, &OptionError{Msg: "the bwrap sandbox has no images: give --check-binary",
			Hint: "CGO_ENABLED=0 go build -o bin/trustlake-check ./cmd/trustlake-check && trustlake tasks check --check-binary bin/trustlake-check"}
	}
	if d, ok := r.(*sandbox.Docker); ok {
		if deadline == "" {
			o.Notice("no trustlake-check beside trustlake and no --check-binary: sandbox containers are bounded inside only by a CPU-time limit, not by a wall-clock deadline")
		}
		n, err := d.RemoveExpired(ctx)
		if err != nil {
			return nil, "", nil, err
		}
		if n > 0 {
			o.Notice(fmt.Sprintf("removed %d leftover sandbox container(s) past their deadline", n))
		}
	}
	opened = true
	return r, o.CheckBinary, release, nil
}

// deadlineBinary returns the static trustlake-check that bounds Docker runs
// from inside (sandbox.DockerOptions.DeadlineBinary): checkBinary, else
// trustlake-check beside this executable (bin/ after make build), else "".
func deadlineBinary(checkBinary string) string {
	if checkBinary != "" {
		return checkBinary
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), "trustlake-check")
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

// Instructions reads the instruction of every task of the library in dir.
func Instructions(dir string) (map[string]string, error) {
	lib, err := LoadLibrary(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for id, t := range lib.Tasks {
		out[id] = t.Instruction
	}
	return out, nil
}
