package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// TestAUCBatchIsWeighted: the interleaved pairs of 1–4 judges give each
// one's aucPairs.weighted bit for bit, on resamples where a judge lacks a
// class too.
func TestAUCBatchIsWeighted(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 23
	for lanes := 1; lanes <= aucLanes; lanes++ {
		pairs := make([]*aucPairs, lanes)
		for k := range pairs {
			items := make([]stats.Scored, 400)
			taskOf := make([]int, len(items))
			for i := range items {
				taskOf[i] = rng.IntN(n)
				// Judge 1 has positives in tasks < 3 only: resamples without them lack a class.
				positive := rng.IntN(3) > 0 && (k != 1 || taskOf[i] < 3)
				items[i] = stats.Scored{Task: fmt.Sprint(taskOf[i]), Score: float64(rng.IntN(40)) / 39, Positive: positive}
			}
			pairs[k] = newAUCPairsOf(items, taskOf, n)
		}
		b := newAUCBatch(pairs)
		nans := 0
		for range 300 {
			w := make([]float64, n)
			for range rng.IntN(2*n) + 1 {
				w[rng.IntN(n)]++
			}
			var got [aucLanes]float64
			b.weighted(w, nil, &got)
			for k, p := range pairs {
				want := p.weighted(w, nil)
				if math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
					t.Fatalf("%d lanes, judge %d: %v, weighted %v", lanes, k, got[k], want)
				}
				if math.IsNaN(want) {
					nans++
				}
			}
		}
		if lanes > 1 && nans == 0 {
			t.Errorf("%d lanes: no resample without a class", lanes)
		}
	}
}

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
