package stats

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scoredData draws reward-model scores: positives score higher on average.
func scoredData(seed uint64, tasks int) []Scored {
	rng := rand.New(rand.NewPCG(seed, 5))
	var items []Scored
	for i := range tasks {
		for range 2 + rng.IntN(5) {
			pos := rng.IntN(3) == 0
			s := rng.NormFloat64()
			if pos {
				s += 1.5
			}
			items = append(items, Scored{Task: fmt.Sprintf("t%02d", i), Score: s, Positive: pos})
		}
	}
	return items
}

func TestCrossFitThreshold(t *testing.T) {
	items := scoredData(1, 40)
	opts := CrossFitOptions{TargetFPR: 0.1, Folds: 4, Seed: 9}
	got, err := CrossFitThreshold(items, opts)
	if err != nil {
		t.Fatal(err)
	}
	var pos, neg int
	var negScores []float64
	for _, it := range items {
		if it.Positive {
			pos++
		} else {
			neg++
			negScores = append(negScores, it.Score)
		}
	}
	if got.TP+got.FN != pos || got.FP+got.TN != neg {
		t.Errorf("held-out counts %+v do not cover %d positives and %d negatives", got, pos, neg)
	}
	if want := thresholdForFPR(negScores, 0.1); got.Threshold != want {
		t.Errorf("Threshold = %v, want %v (chosen on all data)", got.Threshold, want)
	}
	// Folds are balanced by task count: 40 tasks in 4 folds of 10.
	sizes := make([]int, 4)
	for _, f := range got.FoldOf {
		sizes[f]++
	}
	if diff := cmp.Diff([]int{10, 10, 10, 10}, sizes); diff != "" {
		t.Errorf("fold sizes (-want +got):\n%s", diff)
	}
	// Each fold threshold is the one its training negatives give.
	for f, th := range got.FoldThresholds {
		var train []float64
		for _, it := range items {
			if !it.Positive && got.FoldOf[it.Task] != f {
				train = append(train, it.Score)
			}
		}
		if want := thresholdForFPR(train, 0.1); th != want {
			t.Errorf("fold %d threshold %v, want %v", f, th, want)
		}
	}
	// Held-out FPR stays near the target; TPR is well above it.
	if fpr, tpr := float64(got.FP)/float64(got.FP+got.TN), float64(got.TP)/float64(got.TP+got.FN); fpr > 0.25 || tpr < 0.3 {
		t.Errorf("held-out FPR %v, TPR %v: implausible", fpr, tpr)
	}
	// Order of items does not matter.
	shuffled := slices.Clone(items)
	rand.New(rand.NewPCG(2, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	again, err := CrossFitThreshold(shuffled, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("result depends on item order (-first +shuffled):\n%s", diff)
	}
	// Another seed moves tasks between folds.
	opts.Seed = 10
	other, err := CrossFitThreshold(items, opts)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(got.FoldOf, other.FoldOf) {
		t.Error("seeds 9 and 10 gave the same folds")
	}
}

func TestCrossFitThresholdErrors(t *testing.T) {
	items := scoredData(1, 6)
	allPos := []Scored{{"a", 1, true}, {"b", 2, true}, {"c", 1, true}}
	cases := []struct {
		name  string
		items []Scored
		opts  CrossFitOptions
	}{
		{"one fold", items, CrossFitOptions{TargetFPR: 0.1, Folds: 1}},
		{"bad target", items, CrossFitOptions{TargetFPR: 1.5}},
		{"fewer tasks than folds", items, CrossFitOptions{TargetFPR: 0.1, Folds: 7}},
		{"no negatives", allPos, CrossFitOptions{TargetFPR: 0.1, Folds: 2}},
		{"training split without negatives", []Scored{{"a", 1, false}, {"b", 2, true}}, CrossFitOptions{TargetFPR: 0.1, Folds: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := CrossFitThreshold(c.items, c.opts); err == nil {
				t.Error("no error")
			}
		})
	}
}
