// Package sandbox runs one untrusted command over one snapshot in isolation
// (a Docker container through the Engine API, or bubblewrap) and reports
// what it printed, how it exited and whether a limit was hit.
package sandbox

import (
	"context"
	"errors"
	"time"
)

// Sentinel errors; check them with errors.Is.
var (
	ErrNoBackend = errors.New("no sandbox backend available")
	ErrUnsafe    = errors.New("unsafe snapshot")
	// ErrEmptySnapshot: the snapshot is an empty file or an archive with no
	// entries; a verifier run on it would label a broken recording.
	ErrEmptySnapshot = errors.New("empty snapshot")
)

// Mount is a host path exposed read-only inside the sandbox.
type Mount struct {
	Host   string // absolute host path
	Target string // absolute path inside the sandbox
}

// Limits bound one run. Zero values mean the Default* constants.
type Limits struct {
	MemoryBytes int64 // 0 means 512 MiB
	PIDs        int64 // 0 means 128
	NanoCPUs    int64 // 0 means 1 CPU
	OutputBytes int64 // per stream; 0 means 1 MiB
	TmpfsBytes  int64 // private writable /tmp; 0 means 64 MiB
}

// Spec is one command to run.
type Spec struct {
	Image    string        // Docker image; ignored by bwrap and none
	Command  []string      // argv inside the sandbox
	Snapshot string        // host folder mounted read-only at /snapshot ("" for none)
	Mounts   []Mount       // extra read-only mounts (task folder, verifier binary)
	Env      []string      // KEY=VALUE; nothing from the host environment leaks in
	Timeout  time.Duration // wall clock from start; 0 means DefaultTimeout
	Limits   Limits
}

// Result is what one run produced. ExitCode is 128+signal when the process was
// killed (137 after a timeout or an OOM kill).
type Result struct {
	Stdout          []byte
	Stderr          []byte
	ExitCode        int
	Duration        time.Duration
	TimedOut        bool
	OOMKilled       bool
	OutputTruncated bool
}

// Runner runs specs. Implementations are safe for concurrent use. Run returns
// an error only when the run could not happen or ctx was cancelled; a verifier
// that fails, times out or is killed is a Result.
type Runner interface {
	Run(ctx context.Context, spec Spec) (Result, error)
	Name() string // "docker", "bwrap" or "none"
}
