package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

func TestCompareMatchesEpisodeVerdicts(t *testing.T) {
	d := simLake(t)
	a := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2+claim"}
	b := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2-lastk"}
	got, err := Compare(t.Context(), d.s, CompareOptions{A: a, B: b, Resamples: 300})
	if err != nil {
		t.Fatal(err)
	}
	// Reference: pair the episode verdicts in Go.
	rows, err := d.s.MetricEpisodeRows(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	maj := map[string]map[string]string{}
	gt := map[string]bool{}
	for _, r := range rows {
		if r.Source != "natural" || !r.HasGT {
			continue
		}
		jc := r.Judge + "@" + r.Condition
		if maj[jc] == nil {
			maj[jc] = map[string]string{}
		}
		maj[jc][r.EpisodeID] = r.Majority
		gt[r.EpisodeID] = r.GTPass
	}
	var bb, cc, n, accA, accB int
	for ep, va := range maj[a.String()] {
		vb, ok := maj[b.String()][ep]
		if !ok || gt[ep] {
			continue
		}
		n++
		ya, yb := va == "success", vb == "success"
		if ya {
			accA++
		}
		if yb {
			accB++
		}
		switch {
		case ya && !yb:
			bb++
		case yb && !ya:
			cc++
		}
	}
	neg := got.Negatives
	if neg.B != bb || neg.C != cc || neg.NPairs != n {
		t.Errorf("b, c, n = %d, %d, %d; reference %d, %d, %d", neg.B, neg.C, neg.NPairs, bb, cc, n)
	}
	if want := stats.McNemarExact(bb, cc); neg.McNemar != want {
		t.Errorf("mcnemar p = %v, want %v", neg.McNemar, want)
	}
	if want := float64(accA-accB) / float64(n); math.Abs(neg.Diff.Value-want) > 1e-12 {
		t.Errorf("fpr diff = %v, want %v", neg.Diff.Value, want)
	}
	if !(neg.Diff.Boot[0] <= neg.Diff.Value && neg.Diff.Value <= neg.Diff.Boot[1]) {
		t.Errorf("fpr diff %v outside its bootstrap interval %v", neg.Diff.Value, neg.Diff.Boot)
	}
	// JSON shape: b, c, n_pairs, mcnemar_p, fpr_diff {value, boot}.
	js, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(js, &m)
	for _, k := range []string{"b", "c", "n_pairs", "mcnemar_p", "fpr_diff", "positives", "params"} {
		if _, ok := m[k]; !ok {
			t.Errorf("compare JSON lacks %q: %s", k, js)
		}
	}
	if fd, _ := m["fpr_diff"].(map[string]any); fd["value"] == nil || fd["boot"] == nil {
		t.Errorf("fpr_diff = %v, want value and boot", m["fpr_diff"])
	}
}

func TestCompareErrors(t *testing.T) {
	s := testLake(t, handLake())
	j := queries.JudgeCondition{Judge: "j", Condition: "E2-lastk"}
	_, err := Compare(t.Context(), s, CompareOptions{A: j, B: queries.JudgeCondition{Judge: "j", Condition: "E2+claim"}})
	if !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "j@E2-lastk, rm@E1-final") {
		t.Errorf("missing condition: err = %v, want ErrUnknown listing what exists", err)
	}
	_, err = Compare(t.Context(), s, CompareOptions{A: j, B: queries.JudgeCondition{Judge: "rm", Condition: "E1-final"}})
	if !errors.Is(err, ErrScoreOnly) {
		t.Errorf("reward model without threshold: err = %v, want ErrScoreOnly", err)
	}
	thr := 0.5
	got, err := Compare(t.Context(), s, CompareOptions{A: j, B: queries.JudgeCondition{Judge: "rm", Condition: "E1-final"}, Threshold: &thr})
	if err != nil {
		t.Fatal(err)
	}
	// e2 (task t1): j success, rm failure (b); e3 (t2): both failure.
	if neg := got.Negatives; neg.B != 1 || neg.C != 0 || neg.NPairs != 2 || neg.NTasks != 2 || neg.Diff.Value != 0.5 {
		t.Errorf("negatives = %+v, want b=1 c=0 n=2 in 2 tasks, difference 0.5", neg)
	}
	// e1 (t1): both accept; a single task gives no bootstrap interval.
	if pos := got.Positives; pos.NPairs != 1 || pos.B != 0 || pos.C != 0 || !math.IsNaN(pos.Diff.Boot[0]) {
		t.Errorf("positives = %+v, want one concordant pair and a null interval", pos)
	}
}
