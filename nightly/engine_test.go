package nightly

import (
	"fmt"
	"testing"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/sim"
)

// The report engine answers every threshold's judge × conditions from the
// scan without one; the session's own answer must be the same.
func TestReportEngineJudgeConditions(t *testing.T) {
	l := genLake(t, sim.Options{Tasks: 12, EpisodesPerTask: 2})
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := newEngine(s)
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
			t.Errorf("threshold %s: engine %+v, session %+v", fmt.Sprint(thr), got, want)
		}
	}
}
