package nightly

import (
	"fmt"
	"slices"
	"testing"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/sim"
)

// The report engine answers every threshold's judge × conditions from the
// scan without one; the session's own answer must be the same.
func TestReportEngineJudgeConditions(t *testing.T) {
	l := genLake(t, sim.Options{Tasks: 12, EpisodesPerTask: 2})
	s := openSession(t, l)
	e := newEngine(s, nil)
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

// The report engine answers a judge paired with itself from one statement
// for every judge; each answer, and that of a pair of two judges, must be
// the session's.
func TestReportEnginePairs(t *testing.T) {
	l := genLake(t, sim.Options{Tasks: 12, EpisodesPerTask: 2})
	s := openSession(t, l)
	jcs, err := s.MetricsJudgeConditions(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var judges []string
	for _, jc := range jcs {
		if !slices.Contains(judges, jc.Judge) {
			judges = append(judges, jc.Judge)
		}
	}
	e := newEngine(s, nil)
	n := 0
	check := func(a, b queries.JudgeCondition, thr *float64) {
		want, err := s.MetricsPairs(t.Context(), a, b, "natural", thr, "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.MetricsPairs(t.Context(), a, b, "natural", thr, "")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s vs %s, threshold %s: engine %+v, session %+v", a, b, fmt.Sprint(thr), got, want)
		}
		n += len(got)
	}
	for _, thr := range []*float64{nil, ptr(0.5)} {
		for _, c := range [][2]string{{schema.ConditionClaim, schema.ConditionLastK}, {jcs[0].Condition, jcs[len(jcs)-1].Condition}} {
			for _, j := range judges {
				check(queries.JudgeCondition{Judge: j, Condition: c[0]}, queries.JudgeCondition{Judge: j, Condition: c[1]}, thr)
			}
		}
	}
	check(jcs[0].JudgeCondition, jcs[len(jcs)-1].JudgeCondition, ptr(0.5))
	if n == 0 {
		t.Fatal("no pairs: the test compares nothing")
	}
}
