package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
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

// A session that materialised metric_runs (the report's) answers every
// metrics statement as a session that groups the verdicts each time: at
// the materialised threshold, at another one (which falls back to the
// verdicts) and without one, for each reference and key choice.
func TestMaterializedRunsAnswerAsTheVerdicts(t *testing.T) {
	for _, split := range []bool{true, false} {
		name := "one_batch" // no "=" in the name: it becomes a folder of the lake's path
		if split {
			name = "two_batches"
		}
		t.Run(name, func(t *testing.T) { testMaterializedRuns(t, split) })
	}
}

// testMaterializedRuns: with split the run counts hold several rows per
// episode and the session materialises metric_runs; without, they hold one
// and it does not (there is nothing to share).
func testMaterializedRuns(t *testing.T, split bool) {
	lakeDir := genLake(t, split)
	l, err := lake.OpenExisting(lakeDir, lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	open := func() *queries.Session {
		s, err := queries.Open(t.Context(), l, queries.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	plain := open()
	for _, at := range []*float64{ptr(0.5), nil} {
		mat := open()
		if err := mat.MaterializeRuns(t.Context(), at); err != nil {
			t.Fatal(err)
		}
		if rows, err := mat.Query(t.Context(), "SELECT count(*) FROM metric_runs"); (err == nil) != split {
			t.Fatalf("split %v: metric_runs readable: %v", split, err)
		} else if err == nil {
			rows.Close()
		}
		same := func(what string, f func(s *queries.Session) (any, error)) {
			t.Helper()
			want, err := f(plain)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			got, err := f(mat)
			if err != nil {
				t.Fatalf("%s (materialised at %s): %v", what, fmtThreshold(at), err)
			}
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
				t.Errorf("%s, materialised at %s:\n got %+v\nwant %+v", what, fmtThreshold(at), got, want)
			}
		}
		var parse, uncertain, unscored int
		for _, thr := range []*float64{at, ptr(0.3), nil} {
			for _, gt := range []string{queries.GTVerifier, queries.GTAny} {
				for _, by := range [][2]bool{{false, false}, {false, true}, {true, true}} {
					o := queries.MetricCellOptions{ByAgent: by[0], ByCategory: by[1], Threshold: thr, GT: gt}
					same(fmt.Sprintf("cells %+v", o), func(s *queries.Session) (any, error) { return s.MetricsCells(t.Context(), o) })
				}
			}
			same("episodes "+fmtThreshold(thr), func(s *queries.Session) (any, error) {
				rows, err := s.MetricEpisodeRows(t.Context(), thr)
				for _, r := range rows {
					parse, uncertain, unscored = parse+r.ParseErrors, uncertain+r.Uncertain, unscored+r.Unscored
				}
				return rows, err
			})
			same("judge conditions "+fmtThreshold(thr), func(s *queries.Session) (any, error) { return s.MetricsJudgeConditions(t.Context(), thr) })
			jcs, err := plain.MetricsJudgeConditions(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, jc := range jcs {
				b := queries.JudgeCondition{Judge: jc.Judge, Condition: "E2-lastk"}
				same(fmt.Sprintf("pairs %s %s", jc.JudgeCondition, fmtThreshold(thr)), func(s *queries.Session) (any, error) {
					return s.MetricsPairs(t.Context(), jc.JudgeCondition, b, "natural", thr, queries.GTVerifier)
				})
				same("scores "+jc.String(), func(s *queries.Session) (any, error) {
					return s.MetricsScores(t.Context(), jc.JudgeCondition, "natural")
				})
			}
		}
		if parse == 0 || uncertain == 0 || unscored == 0 {
			t.Fatalf("the generated lake should hold parse errors (%d), uncertain runs (%d) and unscored runs (%d)", parse, uncertain, unscored)
		}
	}
}
