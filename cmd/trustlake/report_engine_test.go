package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// The report engine answers every threshold's judge × conditions from the
// scan without one; the session's own answer must be the same.
func TestReportEngineJudgeConditions(t *testing.T) {
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	for _, args := range [][]string{{"gen", "--out", data, "--tasks", "12", "--episodes-per-task", "2"},
		{"ingest", "episodes", filepath.Join(data, "episodes")}} {
		if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir, "ingest", "verdicts"}, verdicts...)...); code != 0 {
		t.Fatalf("ingest verdicts: exit %d\n%s", code, stderr)
	}
	l, err := lake.OpenExisting(lakeDir, lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := newReportEngine(s)
	none, err := e.MetricsJudgeConditions(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	unscored := 0
	for _, jc := range none {
		unscored += jc.Unscored
	}
	if len(none) == 0 || unscored == 0 {
		t.Fatalf("the generated lake should hold a reward model (unscored episodes): %+v", none)
	}
	for _, thr := range []*float64{nil, ptr(0.0), ptr(0.5), ptr(1.0)} {
		want, err := s.MetricsJudgeConditions(t.Context(), thr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.MetricsJudgeConditions(t.Context(), thr)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("threshold %s: engine %+v, session %+v", fmtThreshold(thr), got, want)
		}
	}
}

func ptr(f float64) *float64 { return &f }

func fmtThreshold(thr *float64) string {
	if thr == nil {
		return "none"
	}
	return fmt.Sprint(*thr)
}
