package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Defaults applied to zero fields of Spec and Limits.
const (
	DefaultTimeout     = 2 * time.Minute
	DefaultMemoryBytes = 512 << 20
	DefaultPIDs        = 128
	DefaultNanoCPUs    = 1e9
	DefaultOutputBytes = 1 << 20
	DefaultTmpfsBytes  = 64 << 20

	// LabelKey labels every container the Docker backend creates (value "1"), so
	// that leftovers can be found with a label filter.
	LabelKey = "trustlake.sandbox"

	// SandboxUser is the uid:gid commands run as (Docker user, bwrap uid/gid).
	SandboxUser = "65534:65534"
	sandboxUID  = 65534
	sandboxGID  = 65534
)

// ErrSpec reports an invalid Spec.
var ErrSpec = errors.New("invalid sandbox spec")

// withDefaults replaces the fields of l that are not positive by the defaults.
func (l Limits) withDefaults() Limits {
	for _, f := range []struct {
		v *int64
		d int64
	}{{&l.MemoryBytes, DefaultMemoryBytes}, {&l.PIDs, DefaultPIDs}, {&l.NanoCPUs, DefaultNanoCPUs},
		{&l.OutputBytes, DefaultOutputBytes}, {&l.TmpfsBytes, DefaultTmpfsBytes}} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	return l
}

func (s Spec) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.Timeout
}

// validate checks what every backend needs; needImage is set for Docker.
func (s Spec) validate(needImage bool) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrSpec, fmt.Sprintf(format, args...))
	}
	if len(s.Command) == 0 || s.Command[0] == "" {
		return bad("empty command")
	}
	if needImage && s.Image == "" {
		return bad("no image")
	}
	for _, kv := range s.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return bad("env %q: want KEY=VALUE", kv)
		}
	}
	if s.Snapshot != "" {
		if err := checkHostPath("snapshot", s.Snapshot); err != nil {
			return bad("%v", err)
		}
	}
	for _, m := range s.Mounts {
		if err := checkHostPath("mount", m.Host); err != nil {
			return bad("%v", err)
		}
		if !filepath.IsAbs(m.Target) || filepath.Clean(m.Target) == "/" {
			return bad("mount target %q: want an absolute path below /", m.Target)
		}
		switch filepath.Clean(m.Target) {
		case "/snapshot", "/tmp", "/proc", "/dev":
			return bad("mount target %q is reserved", m.Target)
		}
	}
	return nil
}

// checkHostPath requires an absolute existing path that the unprivileged
// sandbox user can read (others-readable, and others-searchable if a folder).
func checkHostPath(what, p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%s %q: want an absolute host path", what, p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	need, fix := os.FileMode(0o004), "o+r"
	if fi.IsDir() {
		need, fix = 0o005, "o+rx"
	}
	if fi.Mode().Perm()&need != need {
		return fmt.Errorf("%s %s: mode %v is not readable by the sandbox user %s (chmod %s)", what, p, fi.Mode().Perm(), SandboxUser, fix)
	}
	return nil
}

// capture keeps the first limit bytes written to it and discards the rest, so a
// chatty process never blocks on a full pipe. It is safe for concurrent use.
type capture struct {
	mu        sync.Mutex
	limit     int64
	buf       bytes.Buffer
	truncated bool
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - int64(c.buf.Len())
	if int64(len(p)) > room {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capture) bytes() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf.Bytes()), c.truncated
}

// fill copies the captured streams into r.
func fill(r *Result, stdout, stderr *capture) {
	var t1, t2 bool
	r.Stdout, t1 = stdout.bytes()
	r.Stderr, t2 = stderr.bytes()
	r.OutputTruncated = t1 || t2
}
