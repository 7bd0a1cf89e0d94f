package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// packedLake makes a lake with a few generated screen episodes packed under
// E1-final and returns its folder.
func packedLake(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	lakeDir := filepath.Join(dir, "lake")
	for _, s := range [][]string{
		{"gen", "--out", filepath.Join(dir, "g"), "--tasks", "1", "--episodes-per-task", "2", "--screens"},
		{"ingest", "episodes", filepath.Join(dir, "g", "episodes")},
		{"evidence", "--conditions", "E1-final", "--max-image-side", "32"},
	} {
		if out, err := trustlakeCmd(lakeDir, s...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	return lakeDir
}

// runOut runs cmd and returns its stdout and stderr.
func runOut(cmd *exec.Cmd) (string, string, error) {
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return o.String(), e.String(), err
}

// noSecretUnder fails when a file under root holds secret.
func noSecretUnder(t *testing.T, root, secret string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})
}

// A server that echoes the request headers in a 200 reply (unparseable, or
// wrapped as the model's text): the key never reaches stdout, stderr,
// --json or the lake.
func TestJudgeNeverPrintsTheKey(t *testing.T) {
	lakeDir := packedLake(t)
	const key = "sk-live-CAFEBABE0123456789"
	for _, backend := range []string{"openai", "anthropic"} {
		for _, wrapped := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var b strings.Builder
				for k, v := range r.Header {
					fmt.Fprintf(&b, "%s: %s; ", k, strings.Join(v, ","))
				}
				switch {
				case !wrapped:
					fmt.Fprintf(w, "echo %s", b.String())
				case backend == "openai":
					fmt.Fprintf(w, `{"choices":[{"message":{"content":%q}}]}`, b.String())
				default:
					fmt.Fprintf(w, `{"content":[{"type":"text","text":%q}]}`, b.String())
				}
			}))
			for _, asJSON := range []bool{false, true} {
				name := fmt.Sprintf("%s/wrapped=%v/json=%v", backend, wrapped, asJSON)
				args := []string{"--verbose", "judge", "--backend", backend, "--model", "m", "--base-url", srv.URL,
					"--judge", "echo-" + strings.ReplaceAll(name, "/", "-"), "--runs", "1", "--conditions", "E1-final", "--retries", "1", "--max-failures", "1", "--concurrency", "1"}
				if asJSON {
					args = append(args, "--json")
				}
				cmd := trustlakeCmd(lakeDir, args...)
				cmd.Env = append(cmd.Env, "OPENAI_API_KEY="+key, "ANTHROPIC_API_KEY="+key)
				stdout, stderr, err := runOut(cmd)
				if strings.Contains(stdout+stderr, key) {
					t.Errorf("%s: the key is printed:\nstdout: %s\nstderr: %s", name, stdout, stderr)
				}
				if !wrapped && !strings.Contains(stdout+stderr, "[redacted]") {
					t.Errorf("%s: (%v) nothing redacted, was the echo seen?\nstdout: %s\nstderr: %s", name, err, stdout, stderr)
				}
			}
			srv.Close()
		}
	}
	noSecretUnder(t, lakeDir, key)
	// The wrapped echoes are parse errors stored with the key redacted.
	out, err := trustlakeCmd(lakeDir, "sql", "-f", "csv", "SELECT count(*) > 0 AND bool_and(raw LIKE '%[redacted]%') AS ok FROM verdicts WHERE verdict = 'parse_error'").CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "\ntrue") {
		t.Errorf("parse_error rows, all with the key redacted: %s (%v)", out, err)
	}
}

// The exec judge gets a minimal environment plus --pass-env; a key it
// echoes on stderr is redacted from trustlake's messages.
func TestJudgeExecEnvironment(t *testing.T) {
	lakeDir := packedLake(t)
	const key = "sk-live-DEADBEEF0123456789"
	envFile := filepath.Join(t.TempDir(), "env")
	run := func(args ...string) (string, string, error) {
		cmd := trustlakeCmd(lakeDir, append([]string{"judge", "--backend", "exec", "--runs", "1", "--conditions", "E1-final"}, args...)...)
		cmd.Env = append(cmd.Env, "OPENAI_API_KEY="+key, "JUDGE_MODE=strict", "JUDGE_TOKEN="+key)
		return runOut(cmd)
	}
	stdout, stderr, err := run("--judge", "env", "--pass-env", "JUDGE_MODE", "--exec", "env > "+envFile+`; echo '{"verdict":"success"}'`)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	env, _ := os.ReadFile(envFile)
	if strings.Contains(string(env), key) || !strings.Contains(string(env), "JUDGE_MODE=strict\n") || !strings.Contains(string(env), "PATH=") {
		t.Errorf("the exec judge's environment:\n%s", env)
	}
	stdout, stderr, err = run("--judge", "echo", "--pass-env", "JUDGE_TOKEN", "--retries", "0", "--max-failures", "1", "--exec", `echo "token $JUDGE_TOKEN, key $OPENAI_API_KEY" >&2; exit 1`)
	if err == nil || strings.Contains(stdout+stderr, key) || !strings.Contains(stderr, "token [redacted]") {
		t.Errorf("%v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	if _, stderr, err = run("--judge", "unset", "--pass-env", "NOT_SET_ANYWHERE", "--exec", "true"); err == nil || !strings.Contains(stderr, "--pass-env NOT_SET_ANYWHERE: NOT_SET_ANYWHERE is not set") {
		t.Errorf("an unset --pass-env: %v %s", err, stderr)
	}
}

// judgeVerdictKeys returns the count of verdict rows and of distinct keys
// of one judge.
func judgeVerdictKeys(t *testing.T, lakeDir, judgeName string) string {
	t.Helper()
	out, err := trustlakeCmd(lakeDir, "sql", "-f", "csv", fmt.Sprintf(
		"SELECT count(*) || '/' || count(DISTINCT (episode_id, condition, run)) FROM verdicts WHERE judge = '%s'", judgeName)).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// lakeClean runs `lake check` and fails the test on damage.
func lakeClean(t *testing.T, lakeDir string) {
	t.Helper()
	if out, err := trustlakeCmd(lakeDir, "lake", "check").CombinedOutput(); err != nil {
		t.Fatalf("lake check: %v\n%s", err, out)
	}
}

const verdictJudge = `cat > /dev/null; echo '{"verdict": "failure", "confidence": 0.5}'`

// `judge` while another writer (ingest, compact) holds the lake lock: past
// --lock-timeout it exits 5 with the lock named and nothing committed
// changes; within the timeout it waits and commits everything.
func TestJudgeWhileAnotherWriterHoldsTheLock(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not on PATH (util-linux)")
	}
	lakeDir := packedLake(t)
	lock := filepath.Join(lakeDir, "_manifest", "lock")
	hold := func(d string) *exec.Cmd {
		cmd := exec.Command("flock", lock, "sleep", d)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200 && exec.Command("flock", "-n", lock, "true").Run() == nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
		return cmd
	}
	judgeArgs := []string{"judge", "--backend", "exec", "--exec", verdictJudge, "--judge", "sim:locked", "--runs", "2", "--conditions", "E1-final"}
	holder := hold("3")
	cmd := trustlakeCmd(lakeDir, append([]string{"--lock-timeout", "300ms"}, judgeArgs...)...)
	_, stderr, err := runOut(cmd)
	if cmd.ProcessState.ExitCode() != 5 || !strings.Contains(stderr, "lake is locked by another writer") {
		t.Errorf("judge under a held lock: %v (exit %d)\n%s", err, cmd.ProcessState.ExitCode(), stderr)
	}
	holder.Wait()
	lakeClean(t, lakeDir)
	if got := judgeVerdictKeys(t, lakeDir, "sim:locked"); got != "0/0" {
		t.Errorf("verdicts after the refused commit: %s", got)
	}
	// Held for 1 s with a 20 s timeout: the judge waits, then commits all.
	holder = hold("1")
	stdout, stderr, err := runOut(trustlakeCmd(lakeDir, append([]string{"--lock-timeout", "20s"}, judgeArgs...)...))
	holder.Wait()
	if err != nil || !strings.Contains(stdout, "verdicts committed") {
		t.Fatalf("judge waiting for the lock: %v\n%s%s", err, stdout, stderr)
	}
	lakeClean(t, lakeDir)
	if got := judgeVerdictKeys(t, lakeDir, "sim:locked"); got != "8/8" { // 4 episodes × 2 runs
		t.Errorf("verdicts: %s, want 8/8", got)
	}
}

// `judge` on a full disk (a 2 MiB tmpfs): a clear error, the verdicts
// committed before stay as they were, and after space is freed a rerun
// completes with each verdict once.
func TestJudgeOnAFullDisk(t *testing.T) {
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	dir := t.TempDir()
	lakeDir := filepath.Join(mnt, "lake")
	for _, s := range [][]string{
		{"gen", "--out", filepath.Join(dir, "g"), "--tasks", "1", "--episodes-per-task", "2", "--screens"},
		{"ingest", "episodes", filepath.Join(dir, "g", "episodes")},
		{"evidence", "--conditions", "E1-final", "--max-image-side", "32"},
		{"judge", "--backend", "exec", "--exec", verdictJudge, "--judge", "sim:before", "--runs", "2", "--conditions", "E1-final"},
	} {
		if out, err := trustlakeCmd(lakeDir, s...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", s, err, out)
		}
	}
	before := judgeVerdictKeys(t, lakeDir, "sim:before")
	// Fill the disk.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	judgeArgs := []string{"judge", "--backend", "exec", "--exec", verdictJudge, "--judge", "sim:full", "--runs", "3", "--conditions", "E1-final"}
	stdout, stderr, err := runOut(trustlakeCmd(lakeDir, judgeArgs...))
	if err == nil || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "run the same command again") {
		t.Errorf("judge on a full disk: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	t.Logf("judge on a full disk: %v\n%s", err, stderr)
	os.Remove(filler)
	lakeClean(t, lakeDir)
	if got := judgeVerdictKeys(t, lakeDir, "sim:before"); got != before {
		t.Errorf("verdicts committed before the full disk: %s, were %s", got, before)
	}
	if stdout, stderr, err = runOut(trustlakeCmd(lakeDir, judgeArgs...)); err != nil {
		t.Fatalf("rerun: %v\n%s%s", err, stdout, stderr)
	}
	lakeClean(t, lakeDir)
	if got := judgeVerdictKeys(t, lakeDir, "sim:full"); got != "12/12" { // 4 episodes × 3 runs
		t.Errorf("verdicts after the rerun: %s", got)
	}
}

func TestJudgeMaxRetryWaitFlag(t *testing.T) {
	for _, v := range []string{"11m", "0s", "-1s"} {
		cmd := trustlakeCmd(t.TempDir(), "judge", "--backend", "exec", "--exec", "true", "--judge", "j", "--max-retry-wait", v)
		if _, stderr, _ := runOut(cmd); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(stderr, "--max-retry-wait") {
			t.Errorf("--max-retry-wait %s: exit %d, %s", v, cmd.ProcessState.ExitCode(), stderr)
		}
	}
}
