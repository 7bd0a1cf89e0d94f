package sandbox

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNone also shows that the network probe of the suite detects a reachable
// host: run unsandboxed, the same probe gets through.
func TestNone(t *testing.T) {
	helper := helperBinary(t)
	t.Setenv("OPENAI_API_KEY", "sk-host-secret")
	var r Runner = None{}

	p := newHostProbe(t)
	res := mustRun(t, r, Spec{Command: []string{helper, "net", p.TCPPort, p.UDPPort}, Timeout: 30 * time.Second})
	if got := lines(res.Stdout); len(got) < 1 || got[0] != "tcp: ok" {
		t.Errorf("unsandboxed probe did not reach the host: %q", res.Stdout)
	}
	if p.hits.Load() == 0 {
		t.Errorf("host listeners saw nothing from an unsandboxed probe")
	}

	res = mustRun(t, r, Spec{Command: []string{helper, "env"}, Env: []string{"A=1"}})
	if got, want := lines(res.Stdout), []string{"A=1"}; !slices.Equal(got, want) {
		t.Errorf("env = %q, want %q", got, want)
	}

	res = mustRun(t, r, Spec{Command: []string{helper, "loop"}, Timeout: time.Second})
	if !res.TimedOut {
		t.Errorf("TimedOut = false, want true")
	}

	res = mustRun(t, r, Spec{Command: []string{helper, "spam", "3000000"}, Limits: Limits{OutputBytes: 1000}})
	if !res.OutputTruncated || len(res.Stdout) != 1000 || !strings.Contains(string(res.Stderr), "spam done") {
		t.Errorf("truncated %v, len %d, stderr %q; want capped at 1000", res.OutputTruncated, len(res.Stdout), res.Stderr)
	}
}
