package metrics

import (
	"strings"
	"testing"

	"github.com/trustlake/trustlake/queries"
)

func TestChecklist(t *testing.T) {
	d := simLake(t)
	r, err := Checklist(t.Context(), d.s, ChecklistOptions{Judge: queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2-lastk"}, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, it := range r.Items {
		status[it.ID] = it.Status
		if it.Figure == "" && it.Status != StatusNotChecked {
			t.Errorf("%s has no figure", it.ID)
		}
		if it.Status != StatusPass && it.Reason == "" {
			t.Errorf("%s is %s without a reason", it.ID, it.Status)
		}
	}
	want := map[string]string{
		"verifiers_deterministic": StatusPass, // sim gt.json says deterministic
		"verifier_fixtures":       StatusNotChecked,
		"fpr_upper_bound":         StatusFail, // FPR about 0.2 against a 0.05 target
		"hard_negative_fpr":       StatusPass,
		"evidence_leakage":        StatusNotChecked,
	}
	for id, w := range want {
		if status[id] != w {
			t.Errorf("%s = %q, want %q", id, status[id], w)
		}
	}
	for _, id := range []string{"enough_negatives", "claim_sway", "self_consistency", "parse_error_rate"} {
		if status[id] != StatusPass && status[id] != StatusFail {
			t.Errorf("%s = %q, want a decision", id, status[id])
		}
	}
	if r.Pass || r.Failed == 0 || r.NotChecked != 2 {
		t.Errorf("pass %v, failed %d, not checked %d", r.Pass, r.Failed, r.NotChecked)
	}
	// The simulated judge is swayed by the agent's claim (sim claim shift).
	if status["claim_sway"] != StatusFail {
		t.Errorf("claim_sway = %s, want fail for the simulated claim shift", status["claim_sway"])
	}
}

func TestChecklistPassing(t *testing.T) {
	// The hand lake has no E2+claim verdicts: claim sway is not checked.
	// With lenient bounds every checkable item passes, and the three
	// unchecked items block unless allowed.
	s := testLake(t, handLake())
	opts := ChecklistOptions{Judge: queries.JudgeCondition{Judge: "j", Condition: "E2-lastk"}, TargetFPR: 0.99, HalfWidth: 0.5,
		MinSelfConsistency: 0.01, MaxParseErrorRate: 0.9, Resamples: 100}
	r, err := Checklist(t.Context(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pass || r.Failed != 0 || r.NotChecked != 3 {
		for _, it := range r.Items {
			t.Logf("%s %s %s %s", it.ID, it.Status, it.Figure, it.Reason)
		}
		t.Errorf("pass %v failed %d not checked %d; want not passed, 0 failed, 3 not checked", r.Pass, r.Failed, r.NotChecked)
	}
	opts.AllowNotChecked = true
	if r, err = Checklist(t.Context(), s, opts); err != nil || !r.Pass {
		t.Errorf("with AllowNotChecked: pass %v, err %v", r.Pass, err)
	}
	opts.TargetFPR = 0.3 // FPR 2/4: its upper bound exceeds 0.3
	if r, err = Checklist(t.Context(), s, opts); err != nil || r.Pass || r.Failed != 1 {
		t.Errorf("target 0.3: pass %v failed %d err %v", r.Pass, r.Failed, err)
	}
}

// TestChecklistDeterministicNotRecorded: ground truth without a
// "deterministic" field (every row null) is reported as not recorded, not a
// crash on a NULL count (issue 24 item 18).
func TestChecklistDeterministicNotRecorded(t *testing.T) {
	tables := handLake()
	for _, g := range tables["ground_truth"] {
		delete(g, "deterministic")
	}
	s := testLake(t, tables)
	r, err := Checklist(t.Context(), s, ChecklistOptions{Judge: queries.JudgeCondition{Judge: "j", Condition: "E2-lastk"}, Resamples: 50})
	if err != nil {
		t.Fatalf("checklist without deterministic: %v", err)
	}
	it := r.Items[0]
	if it.ID != "verifiers_deterministic" || it.Status != StatusNotChecked || !strings.Contains(it.Reason, "not recorded") ||
		!strings.Contains(it.Figure, "7 unrecorded") {
		t.Errorf("item %s = %s, figure %q, reason %q; want not_checked, 7 unrecorded, \"not recorded\"", it.ID, it.Status, it.Figure, it.Reason)
	}
}
