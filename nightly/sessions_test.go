package nightly

import (
	"fmt"
	"testing"

	"github.com/trustlake/trustlake/internal/laketest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/sim"
)

// The report engine keeps metric_episodes at its threshold for the pairs,
// rate and agreement statements: their answers, at that threshold and at
// another, must be those of a session that keeps nothing.
func TestReportEngineKeptEpisodes(t *testing.T) {
	l := genLake(t, sim.Options{Tasks: 12, EpisodesPerTask: 2})
	kept, plain := openSession(t, l), openSession(t, l)
	e := newEngine(kept, ptr(0.5))
	same := func(what string, got, want any, err1, err2 error) {
		t.Helper()
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v, %v", what, err1, err2)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: kept %+v, plain %+v", what, got, want)
		}
	}
	for _, thr := range []*float64{ptr(0.5), nil, ptr(0.25)} {
		name := fmt.Sprint("threshold ", thr)
		if thr != nil {
			name = fmt.Sprint("threshold ", *thr)
		}
		claim := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: schema.ConditionClaim}
		lastk := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: schema.ConditionLastK}
		if thr != nil && *thr == 0.5 {
			got, err1 := e.MetricsPairs(t.Context(), claim, lastk, "natural", thr, "")
			want, err2 := plain.MetricsPairs(t.Context(), claim, lastk, "natural", thr, "")
			same(name+": pairs", got, want, err1, err2)
			if len(got) == 0 {
				t.Fatal("no pairs: the test compares nothing")
			}
		}
		ro := queries.RateCellOptions{Source: "natural", Threshold: thr}
		rc := &rateCells{e: e}
		got, err1 := rc.RateCells(t.Context(), ro)
		want, err2 := plain.RateCells(t.Context(), ro)
		same(name+": rate cells", got, want, err1, err2)
		runs, err1 := e.AgreementRuns(t.Context(), thr, "natural")
		wantRuns, err2 := plain.AgreementRuns(t.Context(), thr, "natural")
		same(name+": agreement runs", runs, wantRuns, err1, err2)
		judges, err1 := e.AgreementJudges(t.Context(), thr, "natural")
		wantJudges, err2 := plain.AgreementJudges(t.Context(), thr, "natural")
		same(name+": agreement judges", judges, wantJudges, err1, err2)
		if len(runs) == 0 || len(judges) == 0 {
			t.Fatalf("%s: no agreement cells: the test compares nothing", name)
		}
		gotEps, err1 := kept.MetricEpisodeRows(t.Context(), thr)
		wantEps, err2 := plain.MetricEpisodeRows(t.Context(), thr)
		same(name+": metric episodes", gotEps, wantEps, err1, err2)
	}
}

// The calibration statement runs on a second session of the same
// snapshot: its answer must be the first session's. When the lake changed
// after the first session opened, there is no second session and the
// statement runs on the first.
func TestReportEngineSecondSession(t *testing.T) {
	l := genLake(t, sim.Options{Tasks: 12, EpisodesPerTask: 2})
	for _, changed := range []bool{false, true} {
		s := openSession(t, l)
		if changed {
			w, err := lake.Open(l.Root(), runcounts.With(lake.Options{}))
			if err != nil {
				t.Fatal(err)
			}
			if _, errs := laketest.Write(t, w, lake.WriterOptions{}, laketest.Verdict("ep-new", "sim:vlm-a", schema.ConditionClaim, 1, "success", 1)); len(errs) > 0 {
				t.Fatal(errs)
			}
		}
		e := newEngine(s, nil)
		go e.openSecond(t.Context(), l, queries.Options{})
		got, err1 := e.CalibrationForecasts(t.Context(), "natural")
		if (e.second != nil) == changed {
			t.Errorf("lake changed %v: second session %v", changed, e.second != nil)
		}
		e.closeSecond()
		want, err2 := s.CalibrationForecasts(t.Context(), "natural")
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("lake changed %v: engine %d forecasts, session %d, or they differ", changed, len(got), len(want))
		}
	}
}
