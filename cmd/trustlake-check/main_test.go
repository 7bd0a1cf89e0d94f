package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	task, snap := t.TempDir(), t.TempDir()
	spec := `{"id":"x","checks":[{"id":"note","type":"text_contains","path":"note.txt","contains":"hello","category":"F-PARTIAL"}]}`
	if err := os.WriteFile(filepath.Join(task, "task.json"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		content  string
		wantPass bool
	}{
		{"pass", "hello world", true},
		{"fail", "bye", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(snap, "note.txt"), []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			if code := run(t.Context(), []string{task, snap}, &out, &errb); code != 0 {
				t.Fatalf("exit %d, stderr %s", code, errb.String())
			}
			var v struct {
				Pass     bool    `json:"pass"`
				Category *string `json:"category"`
			}
			if err := json.Unmarshal(out.Bytes(), &v); err != nil {
				t.Fatalf("stdout %q: %v", out.String(), err)
			}
			if v.Pass != c.wantPass || (v.Category == nil) != c.wantPass {
				t.Errorf("verdict %s, want pass=%v", out.String(), c.wantPass)
			}
		})
	}
}

func TestRunBadTask(t *testing.T) {
	task := t.TempDir()
	if err := os.WriteFile(filepath.Join(task, "task.json"), []byte(`{"checks":[{"id":"a","type":"ods_cell","path":"a.ods","cell":"14D","equals":1,"category":"F-PARTIAL"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(t.Context(), []string{task, t.TempDir()}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "checks[0].cell") {
		t.Errorf("exit %d, stderr %q; want 2 naming checks[0].cell", code, errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want empty", out.String())
	}
}

// TestDeadline: the wrapper kills its command (and the command's children)
// at the deadline and exits 124; otherwise it passes the exit code through.
func TestDeadline(t *testing.T) {
	var stderr strings.Builder
	start := time.Now()
	if got := run(t.Context(), []string{DeadlineFlag, "300ms", "--", "sh", "-c", "sleep 30 & sleep 30"}, io.Discard, &stderr); got != exitDeadline {
		t.Fatalf("exit %d, want %d (%s)", got, exitDeadline, stderr.String())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	if got := run(t.Context(), []string{DeadlineFlag, "10s", "--", "sh", "-c", "exit 3"}, io.Discard, io.Discard); got != 3 {
		t.Fatalf("exit %d, want 3", got)
	}
	if got := run(t.Context(), []string{DeadlineFlag, "x", "--", "true"}, io.Discard, io.Discard); got != 2 {
		t.Fatalf("bad duration: exit %d, want 2", got)
	}
}
