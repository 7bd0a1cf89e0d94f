package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/sparktest"
	"github.com/trustlake/trustlake/internal/testenv"
)

// runCLI runs the CLI in-process and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"trustlake"}, args...), nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// sparkLake generates a small simulated benchmark and ingests it.
func sparkLake(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	lakeDir := filepath.Join(dir, "lake")
	trustlakeRun(t, "gen", "--out", filepath.Join(dir, "gen"), "--tasks", "25", "--episodes-per-task", "2", "--no-episodes")
	trustlakeRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(dir, "gen", "episodes"))
	files, _ := filepath.Glob(filepath.Join(dir, "gen", "verdicts", "*.jsonl"))
	trustlakeRun(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, files...)...)
	return lakeDir
}

// TestSparkEngineCLI: metrics and compare print byte-identical output with
// --engine sc://… (the SQL on a real Spark cluster, the statistics in Go)
// and with the embedded engine, as JSON and as tables.
func TestSparkEngineCLI(t *testing.T) {
	remote := sparktest.Remote(t)
	lakeDir := sparkLake(t)
	for _, args := range [][]string{
		{"metrics", "--json", "--by", "hardness", "--by", "task", "--threshold", "0.5", "--bootstrap", "500"},
		{"metrics", "--judge", "sim:vlm-b", "--by", "agent", "--uncertain-policy", "exclude", "--seed", "11"},
		{"compare", "--claim-sway", "sim:vlm-a", "--json"},
		{"compare", "--threshold", "0.6", "sim:vlm-a@E3-full", "sim:rm-1@E3-full"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			want := trustlakeRun(t, append([]string{"--lake", lakeDir}, args...)...)
			// --engine right after the command name, before any argument.
			onSpark := append([]string{"--lake", lakeDir, args[0], "--engine", remote}, args[1:]...)
			got := trustlakeRun(t, onSpark...)
			if want != got {
				t.Errorf("trustlake %s: output differs\n--- duckdb\n%s\n--- %s\n%s", strings.Join(args, " "), want, remote, got)
			}
			if len(want) < 200 {
				t.Errorf("suspiciously short output: %q", want)
			}
		})
	}
}

// TestSparkEngineBadInput: an unreachable engine, a lake path the engine
// cannot read and a statement the engine refuses fail with exit 1 and a
// message naming the engine and the statement; nothing is written.
func TestSparkEngineBadInput(t *testing.T) {
	remote := sparktest.Remote(t)
	lakeDir := sparkLake(t)
	manifest := filepath.Join(lakeDir, "_manifest", "manifest.json")
	before, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"unreachable", []string{"metrics", "--engine", "sc://127.0.0.1:1"}, []string{"engine sc://127.0.0.1:1", "statement connect", "unreachable", "connection refused"}},
		{"unreadable lake", []string{"metrics", "--engine", remote, "--lake-uri", "file://" + filepath.Join(t.TempDir(), "absent")},
			[]string{"engine " + remote, "statement read manifest", "PATH_NOT_FOUND"}},
		{"compare unreachable", []string{"compare", "--claim-sway", "sim:vlm-a", "--engine", "sc://127.0.0.1:1"}, []string{"engine sc://127.0.0.1:1", "statement connect"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"--lake", lakeDir}, c.args...)...)
			if code != 1 {
				t.Errorf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
	for _, args := range [][]string{
		{"metrics", "--engine", "spark://x:7077"},
		{"metrics", "--lake-uri", "s3a://bucket/lake"},
	} {
		if code, _, stderr := runCLI(t, append([]string{"--lake", lakeDir}, args...)...); code != 2 {
			t.Errorf("trustlake %s: exit %d, want 2 (usage); stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	after, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the manifest changed")
	}
}

// TestSparkEngineTrust: trust --engine sc://… audits the real τ-bench
// results read through Spark and prints and stores exactly what the
// embedded engine does (each engine on its own copy of the lake).
func TestSparkEngineTrust(t *testing.T) {
	remote := sparktest.Remote(t)
	file := testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
	dir := t.TempDir()
	duckLake, sparkLake := filepath.Join(dir, "duck"), filepath.Join(dir, "spark")
	trustlakeRun(t, "--lake", duckLake, "ingest", "tau-bench", file)
	if err := os.CopyFS(sparkLake, os.DirFS(duckLake)); err != nil {
		t.Fatal(err)
	}
	want := trustlakeRun(t, "--lake", duckLake, "trust", "--json")
	got := trustlakeRun(t, "--lake", sparkLake, "trust", "--engine", remote, "--json")
	if want != got {
		t.Errorf("trust --json differs\n--- duckdb\n%s\n--- spark\n%s", want, got)
	}
	if !strings.Contains(want, `"new": 200`) {
		t.Errorf("want 200 stored audit rows in\n%s", want)
	}
	want = trustlakeRun(t, "--lake", duckLake, "trust", "--benchmark", "tau-bench-airline", "--d2-unconfirmed", "strict")
	got = trustlakeRun(t, "--lake", sparkLake, "trust", "--engine", remote, "--benchmark", "tau-bench-airline", "--d2-unconfirmed", "strict")
	if want != got {
		t.Errorf("trust (strict D2) differs\n--- duckdb\n%s\n--- spark\n%s", want, got)
	}
	// An unreachable engine writes nothing.
	before, _ := os.ReadFile(filepath.Join(sparkLake, "_manifest", "manifest.json"))
	code, _, stderr := runCLI(t, "--lake", sparkLake, "trust", "--engine", "sc://127.0.0.1:1")
	after, _ := os.ReadFile(filepath.Join(sparkLake, "_manifest", "manifest.json"))
	if code != 1 || !strings.Contains(stderr, "engine sc://127.0.0.1:1: statement connect") || !bytes.Equal(before, after) {
		t.Errorf("unreachable engine: exit %d, manifest unchanged %v, stderr:\n%s", code, bytes.Equal(before, after), stderr)
	}
}
