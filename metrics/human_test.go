package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// humanLake: judge j (condition c, one run) on e1..e4 (tasks t1..t4).
//
//	ep  verifier  human (annotators)   human majority  verdict
//	e1  pass      A fail, B fail       fail            success
//	e2  fail      A fail               fail            failure
//	e3  -         A pass, B pass, C fail  pass         success
//	e4  -         A pass, B fail       tie (none)      success
//
// Judge k (condition c) says failure everywhere.
func humanLake() map[string][]rec {
	out := map[string][]rec{}
	verdict := map[string]string{"e1": "success", "e2": "failure", "e3": "success", "e4": "success"}
	for i, e := range []string{"e1", "e2", "e3", "e4"} {
		out[lake.Episodes] = append(out[lake.Episodes], rec{"episode_id": e, "task_id": "t" + string(rune('1'+i)), "source": "natural", "agent": "a"})
		out[lake.Verdicts] = append(out[lake.Verdicts], rec{"episode_id": e, "judge": "j", "condition": "c", "run": 1, "verdict": verdict[e]},
			rec{"episode_id": e, "judge": "k", "condition": "c", "run": 1, "verdict": "failure"})
	}
	out[lake.GroundTruth] = []rec{
		{"episode_id": "e1", "pass": true, "verifier_sha256": "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"},
		{"episode_id": "e2", "pass": false, "verifier_sha256": "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"},
	}
	for _, h := range []struct {
		ep, ann string
		pass    bool
	}{{"e1", "A", false}, {"e1", "B", false}, {"e2", "A", false}, {"e3", "A", true}, {"e3", "B", true}, {"e3", "C", false}, {"e4", "A", true}, {"e4", "B", false}} {
		out[lake.GroundTruth] = append(out[lake.GroundTruth], rec{"episode_id": h.ep, "pass": h.pass, "source": "human", "annotator": h.ann})
	}
	return out
}

func TestRunGroundTruthSources(t *testing.T) {
	s := testLake(t, humanLake())
	cases := []struct {
		gt             string
		tp, fp, tn, fn int
		accuracy       float64
	}{
		{queries.GTVerifier, 1, 0, 1, 0, 1},    // e1 TP, e2 TN
		{queries.GTHuman, 1, 1, 1, 0, 2.0 / 3}, // e1 FP, e2 TN, e3 TP; e4 tie excluded
		{queries.GTAny, 2, 0, 1, 0, 1},         // e1 verifier TP, e2 TN, e3 human TP
	}
	for _, c := range cases {
		rep, err := Run(t.Context(), s, Options{Judges: []string{"j"}, GT: c.gt, Resamples: 200})
		if err != nil {
			t.Fatalf("%s: %v", c.gt, err)
		}
		r := findRow(t, rep, "j", "c", "", "")
		if got := [4]int{r.TP, r.FP, r.TN, r.FN}; got != [4]int{c.tp, c.fp, c.tn, c.fn} || !near(r.Accuracy.Value, c.accuracy) || rep.Params.GT != c.gt {
			t.Errorf("%s: tp fp tn fn %v accuracy %v (params gt %s)", c.gt, got, r.Accuracy.Value, rep.Params.GT)
		}
		// Fleiss' κ between annotators over e1, e3, e4: P̄ = (1 + 1/3 + 0)/3 = 4/9,
		// Pe = (3/7)² + (4/7)² = 25/49, κ = (4/9 − 25/49)/(24/49) = −29/216.
		want := Reference{Episodes: 4, Annotators: 3, Judgments: 8, MultiAnnotated: 3, Unanimous: 1, Ties: 1, FleissKappa: jsonNum(-29.0 / 216)}
		if diff := cmp.Diff(want, rep.Reference, cmp.Comparer(func(a, b jsonNum) bool { return math.Abs(float64(a-b)) < 1e-12 })); diff != "" {
			t.Errorf("%s: reference (-want +got):\n%s", c.gt, diff)
		}
		tieWarn := strings.Contains(strings.Join(rep.Warnings, "\n"), "human judgments tie on 1 episode(s)")
		if tieWarn != (c.gt != queries.GTVerifier) {
			t.Errorf("%s: warnings %q", c.gt, rep.Warnings)
		}
	}
	if _, err := Run(t.Context(), s, Options{GT: "humans"}); !errors.Is(err, ErrBadOption) {
		t.Errorf("--gt humans: err = %v, want ErrBadOption", err)
	}
	// Judge-vs-human comparison from the same code: j vs k against the humans.
	cmpHuman, err := Compare(t.Context(), s, CompareOptions{A: queries.JudgeCondition{Judge: "j", Condition: "c"},
		B: queries.JudgeCondition{Judge: "k", Condition: "c"}, GT: queries.GTHuman, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	// e1 (fail): j wrong, k right; e2 (fail): both right; e3 (pass): j right, k wrong.
	if a := cmpHuman.Accuracy; a.NPairs != 3 || a.B != 1 || a.C != 1 || !near(a.RateA.Value, 2.0/3) || !near(a.RateB.Value, 2.0/3) || a.Diff.Value != 0 {
		t.Errorf("accuracy pairs %+v", a)
	}
	js, _ := json.Marshal(cmpHuman)
	for _, k := range []string{`"accuracy":{`, `"accuracy_a":`, `"accuracy_diff":`, `"gt":"human"`} {
		if !strings.Contains(string(js), k) {
			t.Errorf("compare JSON lacks %s: %s", k, js)
		}
	}
}

func TestRunHumanWithoutJudgments(t *testing.T) {
	s := testLake(t, handLake())
	_, err := Run(t.Context(), s, Options{GT: queries.GTHuman})
	if !errors.Is(err, ErrNoGroundTruth) || !strings.Contains(err.Error(), "ingest human-labels") {
		t.Errorf("err = %v, want ErrNoGroundTruth naming ingest human-labels", err)
	}
}
