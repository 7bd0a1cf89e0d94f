package sandbox

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// backend is one runner under test with what its specs need: the image (Docker)
// or mounts (bwrap) that make the helper available at helperPath.
type backend struct {
	r          Runner
	image      string
	mounts     []Mount
	helperPath string
	oomKilled  bool // the backend reports OOMKilled (cgroup memory limit)
}

func (b backend) spec(args ...string) Spec {
	return Spec{
		Image:   b.image,
		Command: append([]string{b.helperPath}, args...),
		Mounts:  b.mounts,
		Timeout: 30 * time.Second,
	}
}

// runSuite runs the security and fault tests every isolating backend must pass.
func runSuite(t *testing.T, b backend) {
	t.Run("exit code and streams", func(t *testing.T) {
		res := mustRun(t, b.r, b.spec("exit", "7"))
		if got, want := res.ExitCode, 7; got != want {
			t.Errorf("ExitCode = %d, want %d", got, want)
		}
		if got, want := string(res.Stderr), "bye\n"; got != want {
			t.Errorf("Stderr = %q, want %q", got, want)
		}
	})
	t.Run("non-root user", func(t *testing.T) {
		res := mustRun(t, b.r, b.spec("id"))
		if got, want := string(res.Stdout), "uid=65534 gid=65534\n"; got != want {
			t.Errorf("id = %q, want %q", got, want)
		}
	})
	t.Run("host environment not visible", func(t *testing.T) {
		t.Setenv("OPENAI_API_KEY", "sk-host-secret")
		spec := b.spec("env")
		spec.Env = []string{"TRUSTLAKE_TASK=t1"}
		res := mustRun(t, b.r, spec)
		out := string(res.Stdout)
		if strings.Contains(out, "OPENAI_API_KEY") || strings.Contains(out, "sk-host-secret") {
			t.Errorf("host secret visible inside:\n%s", out)
		}
		if !slices.Contains(lines(res.Stdout), "TRUSTLAKE_TASK=t1") {
			t.Errorf("Spec.Env missing inside:\n%s", out)
		}
	})
	t.Run("no network", func(t *testing.T) {
		p := newHostProbe(t)
		res := mustRun(t, b.r, b.spec("net", p.TCPPort, p.UDPPort))
		got := lines(res.Stdout)
		for i, prefix := range []string{"tcp: err", "dns: err", "route: err", "ifaces: 0"} {
			if i >= len(got) || !strings.HasPrefix(got[i], prefix) {
				t.Errorf("probe line %d: want prefix %q; output:\n%s%s", i, prefix, res.Stdout, res.Stderr)
			}
		}
		if n := p.hits.Load(); n != 0 {
			t.Errorf("host listeners got %d connections/packets from the sandbox", n)
		}
	})
	t.Run("timeout kills", func(t *testing.T) {
		spec := b.spec("loop")
		spec.Timeout = 2 * time.Second
		start := time.Now()
		res := mustRun(t, b.r, spec)
		if !res.TimedOut {
			t.Errorf("TimedOut = false, want true (exit %d)", res.ExitCode)
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("run took %v, want it killed near 2s", d)
		}
	})
	t.Run("fork bomb held by pids limit", func(t *testing.T) {
		spec := b.spec("fork")
		spec.Limits.PIDs = 64
		res := mustRun(t, b.r, spec)
		out := string(res.Stdout) + string(res.Stderr)
		if res.TimedOut || strings.Contains(out, "no limit hit") {
			t.Fatalf("fork bomb not held (timed out %v):\n%.2000s", res.TimedOut, out)
		}
		held := strings.Contains(out, "fork err") || strings.Contains(out, "failed to create new OS thread") ||
			strings.Contains(out, "resource temporarily unavailable")
		if !held || res.ExitCode == 0 {
			t.Errorf("want the pids limit to stop the bomb (exit %d):\n%.2000s", res.ExitCode, out)
		}
	})
	t.Run("10000 forks held by the default pids limit", func(t *testing.T) {
		res := mustRun(t, b.r, b.spec("fork", "10000"))
		out := string(res.Stdout) + string(res.Stderr)
		if res.TimedOut || strings.Contains(out, "no limit hit") || res.ExitCode == 0 {
			t.Fatalf("10000 forks not held by the default limit of %d (exit %d, timed out %v):\n%.2000s", DefaultPIDs, res.ExitCode, res.TimedOut, out)
		}
	})
	t.Run("no writable /dev/shm or /dev", func(t *testing.T) {
		res := mustRun(t, b.r, b.spec("write", "/dev/shm/x", "/dev/x", "/dev/mqueue/x"))
		got := lines(res.Stdout)
		for i, want := range []string{"write /dev/shm/x err", "write /dev/x err", "write /dev/mqueue/x err"} {
			if i >= len(got) || !strings.HasPrefix(got[i], want) {
				t.Errorf("line %d: want prefix %q; output:\n%s%s", i, want, res.Stdout, res.Stderr)
			}
		}
	})
	t.Run("memory hog stopped", func(t *testing.T) {
		spec := b.spec("mem", "1024")
		spec.Limits.MemoryBytes = 128 << 20
		res := mustRun(t, b.r, spec)
		if strings.Contains(string(res.Stdout), "allocated") || res.ExitCode == 0 {
			t.Fatalf("memory hog completed (exit %d): %s", res.ExitCode, res.Stdout)
		}
		if b.oomKilled && !res.OOMKilled {
			t.Errorf("OOMKilled = false, want true (exit %d)", res.ExitCode)
		}
	})
	t.Run("snapshot read-only, root read-only, tmp writable", func(t *testing.T) {
		snap := sharedDir(t)
		if err := os.WriteFile(filepath.Join(snap, "final.txt"), []byte("state"), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := b.spec("write", "/snapshot/final.txt", "/snapshot/new", "/evil", "/tmp/scratch")
		spec.Snapshot = snap
		res := mustRun(t, b.r, spec)
		got := lines(res.Stdout)
		for i, want := range []string{"write /snapshot/final.txt err", "write /snapshot/new err", "write /evil err", "write /tmp/scratch ok"} {
			if i >= len(got) || !strings.HasPrefix(got[i], want) {
				t.Errorf("line %d: want prefix %q; output:\n%s%s", i, want, res.Stdout, res.Stderr)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(snap, "final.txt")); string(b) != "state" {
			t.Errorf("snapshot changed: %q", b)
		}
		if _, err := os.Stat(filepath.Join(snap, "new")); err == nil {
			t.Errorf("file created in snapshot")
		}
		spec = b.spec("cat", "/snapshot/final.txt")
		spec.Snapshot = snap
		if res := mustRun(t, b.r, spec); string(res.Stdout) != "state" {
			t.Errorf("cat /snapshot/final.txt = %q (%s), want state", res.Stdout, res.Stderr)
		}
	})
	t.Run("output capped", func(t *testing.T) {
		spec := b.spec("spam", "104857600")
		spec.Limits.OutputBytes = 1 << 20
		res := mustRun(t, b.r, spec)
		if !res.OutputTruncated {
			t.Errorf("OutputTruncated = false, want true")
		}
		if got, want := len(res.Stdout), 1<<20; got != want {
			t.Errorf("len(Stdout) = %d, want %d", got, want)
		}
		if !bytes.Contains(res.Stderr, []byte("spam done")) || res.TimedOut {
			t.Errorf("writer blocked or killed: timed out %v, stderr %q", res.TimedOut, res.Stderr)
		}
	})
	t.Run("cancel stops the run", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		res, err := b.r.Run(ctx, b.spec("sleep"))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if res.TimedOut {
			t.Errorf("TimedOut = true for a cancelled run")
		}
		if d := time.Since(start); d > 15*time.Second {
			t.Errorf("cancelled run took %v", d)
		}
	})
}

func mustRun(t *testing.T, r Runner, spec Spec) Result {
	t.Helper()
	res, err := r.Run(t.Context(), spec)
	if err != nil {
		t.Fatalf("Run(%q): %v", spec.Command, err)
	}
	t.Logf("exit %d timedOut %v oom %v truncated %v in %v\nstdout: %.300q\nstderr: %.300q",
		res.ExitCode, res.TimedOut, res.OOMKilled, res.OutputTruncated, res.Duration, res.Stdout, res.Stderr)
	return res
}
