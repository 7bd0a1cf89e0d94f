package metrics

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/trustlake/trustlake/queries"
)

// TestThresholdsAsThreshold: Thresholds gives every judge Threshold's
// report (the reward model under each condition shares a bootstrap pass),
// and an unknown judge its error.
func TestThresholdsAsThreshold(t *testing.T) {
	d := simLake(t)
	var opts []ThresholdOptions
	for _, c := range []string{"E2-lastk", "E1-final", "E2+claim", "E3-full", "E2-lastk"} {
		opts = append(opts, ThresholdOptions{Judge: queries.JudgeCondition{Judge: "sim:rm-1", Condition: c}, TargetFPR: 0.1, Folds: 4, Resamples: 300})
	}
	opts = append(opts, ThresholdOptions{Judge: queries.JudgeCondition{Judge: "nope", Condition: "E2-lastk"}, TargetFPR: 0.1})
	got, errs := Thresholds(t.Context(), d.s, opts)
	if ok := len(opts) - len(slices.DeleteFunc(slices.Clone(errs), func(err error) bool { return err == nil })); ok < 4 {
		t.Fatalf("%d judges without error, want 5: %v", ok, errs)
	}
	for i, o := range opts {
		want, err := Threshold(t.Context(), d.s, o)
		if (err == nil) != (errs[i] == nil) || err != nil && err.Error() != errs[i].Error() {
			t.Fatalf("%v: error %v, Threshold's %v", o.Judge, errs[i], err)
		}
		if d := cmp.Diff(want, got[i], cmpopts.EquateNaNs()); d != "" {
			t.Errorf("%v (-Threshold +Thresholds):\n%s", o.Judge, d)
		}
	}
}
