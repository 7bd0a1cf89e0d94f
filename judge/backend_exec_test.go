package judge

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// execCall calls an exec judge once on an empty pack, under timeout.
func execCall(t *testing.T, b *Exec, timeout time.Duration) (Reply, error, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	start := time.Now()
	r, err := b.Call(ctx, &Request{Pack: &Pack{}, PackJSON: []byte("{}"), Prompt: "p"})
	return r, err, time.Since(start)
}

// gone reports whether process pid has exited (or is a zombie).
func gone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

// The exec judge gets PATH, HOME, LANG and the like, plus what is handed
// over, never the API keys of the environment; its echoed stderr is
// redacted.
func TestExecEnvironmentIsMinimal(t *testing.T) {
	const key = "sk-env-leak-0123456789"
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("ANTHROPIC_API_KEY", key)
	t.Setenv("UNRELATED_SETTING", "x")
	envFile := filepath.Join(t.TempDir(), "env")
	b := &Exec{Command: "env > " + envFile + `; echo '{"verdict":"success"}'`, Env: []string{"HANDED=over"}}
	if r, err, _ := execCall(t, b, 10*time.Second); err != nil || ParseReply(r.Text).Verdict != "success" {
		t.Fatalf("%+v %v", r, err)
	}
	env, _ := os.ReadFile(envFile)
	for _, want := range []string{"PATH=" + os.Getenv("PATH"), "HANDED=over"} {
		if !strings.Contains(string(env), want+"\n") {
			t.Errorf("environment lacks %s:\n%s", want, env)
		}
	}
	for _, not := range []string{key, "UNRELATED_SETTING"} {
		if strings.Contains(string(env), not) {
			t.Errorf("environment holds %s:\n%s", not, env)
		}
	}
	// A key handed over and echoed on stderr (or stdout) is redacted.
	b = &Exec{Command: `echo "using $MY_TOKEN" >&2; echo "{\"verdict\": \"$MY_TOKEN\"}"; exit 3`, Env: []string{"MY_TOKEN=" + key},
		Secrets: EnvSecrets([]string{"MY_TOKEN=" + key})}
	_, err, _ := execCall(t, b, 10*time.Second)
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "using [redacted]") {
		t.Errorf("got %v", err)
	}
	b.Command = `echo "{\"verdict\": \"$MY_TOKEN\"}"`
	if r, err, _ := execCall(t, b, 10*time.Second); err != nil || strings.Contains(r.Text, key) {
		t.Errorf("reply %q, %v", r.Text, err)
	}
}

// --timeout kills the command's whole process group: a pipeline's
// grandchild or a background child holding stdout cannot keep the call
// open for 40 s.
func TestExecTimeoutKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, cmd string
		timeout   time.Duration
	}{
		{"pipeline", "sleep 40 | cat", time.Second},
		{"background child", "sleep 40 & echo $! > " + dir + "/b; wait", time.Second},
		// The command exits at once: its output is read within execWaitDelay.
		{"background child, command exits", "sleep 40 & echo $! > " + dir + `/c; echo '{"verdict":"failure"}'`, 5 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err, took := execCall(t, &Exec{Command: c.cmd}, c.timeout)
			if took > c.timeout+3*time.Second || (strings.Contains(c.name, "exits") && took > 3*time.Second) {
				t.Errorf("the call took %s with a %s timeout", took, c.timeout)
			}
			if strings.Contains(c.name, "exits") {
				if err != nil || ParseReply(r.Text).Verdict != "failure" {
					t.Errorf("want the verdict printed before exit: %+v %v", r, err)
				}
			} else if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("got %v, want the deadline", err)
			}
		})
	}
	time.Sleep(100 * time.Millisecond)
	for _, f := range []string{"b", "c"} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err != nil || !gone(pid) {
			t.Errorf("%s: the background sleep (%q) still runs", f, data)
			if err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// An exec judge's stdout is capped like an HTTP body: 200 MB of output is
// a failed call, quickly, without holding the output in memory.
func TestExecStdoutIsCapped(t *testing.T) {
	// TotalAlloc is the whole process's: goroutines an earlier test left
	// winding down can only add to it, so the smallest of three calls is
	// the call's own.
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err, took := execCall(t, &Exec{Command: "head -c 200000000 /dev/zero"}, 60*time.Second)
		runtime.ReadMemStats(&after)
		var ce *CallError
		if !errors.As(err, &ce) || ce.Retryable || !strings.Contains(err.Error(), "stdout over 64 MiB") {
			t.Fatalf("got %v", err)
		}
		if took > 20*time.Second {
			t.Errorf("took %s", took)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if least > 3*MaxReplyBytes {
		t.Errorf("allocated %d MB for a capped reply", least>>20)
	}
	// A command ignoring SIGPIPE and writing forever is killed too.
	var ce *CallError
	_, err, took := execCall(t, &Exec{Command: "trap '' PIPE; while :; do cat /dev/zero; done"}, 60*time.Second)
	if !errors.As(err, &ce) || took > 20*time.Second {
		t.Errorf("endless writer: %v after %s", err, took)
	}
}
