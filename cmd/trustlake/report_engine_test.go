package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// genLake generates a small lake (12 tasks, judges and a reward model) and
// returns its folder: the verdicts in one batch, so that the run counts
// hold one row per episode, or with split the first runs in one batch and
// the others in a second, so that they do not.
func genLake(t *testing.T, split bool) string {
	t.Helper()
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	for _, args := range [][]string{{"gen", "--out", data, "--tasks", "12", "--episodes-per-task", "2"},
		{"ingest", "episodes", filepath.Join(data, "episodes")}} {
		if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	batches := [][]string{verdicts}
	if split {
		batches = splitByRun(t, verdicts, filepath.Join(dir, "split"))
	}
	for _, files := range batches {
		if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, files...)...); code != 0 {
			t.Fatalf("ingest verdicts: exit %d\n%s", code, stderr)
		}
	}
	return lakeDir
}

// splitByRun writes the verdict lines of files into two files under dir,
// run 1 and the later runs, and returns them as two batches.
func splitByRun(t *testing.T, files []string, dir string) [][]string {
	t.Helper()
	var first, rest []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			var v struct{ Run int }
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if err := json.Unmarshal(line, &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if v.Run == 1 {
				first = append(first, line...)
			} else {
				rest = append(rest, line...)
			}
		}
	}
	if len(first) == 0 || len(rest) == 0 {
		t.Fatal("the generated verdicts should have several runs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "run1.jsonl"), filepath.Join(dir, "later.jsonl")
	if err := os.WriteFile(a, first, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, rest, 0o644); err != nil {
		t.Fatal(err)
	}
	return [][]string{{a}, {b}}
}

func ptr(f float64) *float64 { return &f }

func fmtThreshold(thr *float64) string {
	if thr == nil {
		return "none"
	}
	return fmt.Sprint(*thr)
}
