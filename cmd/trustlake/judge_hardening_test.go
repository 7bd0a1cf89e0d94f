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
