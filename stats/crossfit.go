package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Scored is one episode for threshold calibration: the task it belongs to,
// a reward-model score (higher means more likely success) and whether the
// ground truth passed.
type Scored struct {
	Task     string
	Score    float64
	Positive bool
}

// CrossFitOptions configures CrossFitThreshold.
type CrossFitOptions struct {
	TargetFPR float64 // false-positive rate the threshold must keep, in [0, 1]
	Folds     int     // number of folds k; 0 means 5
	Seed      uint64  // fold assignment seed
}

// CrossFit is the outcome of CrossFitThreshold.
type CrossFit struct {
	// TP, FP, TN and FN pool the held-out folds: each episode is judged with
	// the threshold chosen on the other folds.
	TP, FP, TN, FN int
	// FoldThresholds[f] was chosen on all folds but f.
	FoldThresholds []float64
	// FoldOf maps each task to its fold.
	FoldOf map[string]int
	// Threshold is chosen on all episodes; it is what a deployment would use,
	// while the pooled counts estimate how it behaves on unseen tasks.
	Threshold float64
}

// CrossFitThreshold chooses a reward-model threshold by k-fold cross-fitting
// split by task (seed §6.3, policy fpr_target): tasks are sorted by id,
// shuffled with a PCG seeded from Seed and dealt round-robin into k folds,
// so the assignment depends only on Seed and the set of task ids. For each
// fold, thresholdSorted picks the threshold on the negatives of the other
// folds and the fold's episodes are counted as success when score >=
// threshold. The result is independent of the order of items.
//
// It fails when TargetFPR is outside [0, 1], Folds is 1 or negative, there
// are fewer tasks than folds, a score is NaN, or some training split has no
// negatives.
func CrossFitThreshold(items []Scored, opts CrossFitOptions) (CrossFit, error) {
	k := cmp.Or(opts.Folds, 5)
	if k < 2 {
		return CrossFit{}, fmt.Errorf("cross-fit: folds %d: need at least 2", k)
	}
	if !(opts.TargetFPR >= 0 && opts.TargetFPR <= 1) {
		return CrossFit{}, fmt.Errorf("cross-fit: target FPR %v: must be in [0, 1]", opts.TargetFPR)
	}
	var tasks []string
	seen := map[string]bool{}
	for i, it := range items {
		if math.IsNaN(it.Score) {
			return CrossFit{}, fmt.Errorf("cross-fit: item %d (task %q): score is NaN", i, it.Task)
		}
		if !seen[it.Task] {
			seen[it.Task] = true
			tasks = append(tasks, it.Task)
		}
	}
	if len(tasks) < k {
		return CrossFit{}, fmt.Errorf("cross-fit: %d tasks: need at least %d (one per fold)", len(tasks), k)
	}
	slices.Sort(tasks)
	rng := rand.New(rand.NewPCG(opts.Seed, splitmix64(opts.Seed)))
	rng.Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })
	out := CrossFit{FoldOf: make(map[string]int, len(tasks)), FoldThresholds: make([]float64, k)}
	for i, t := range tasks {
		out.FoldOf[t] = i % k
	}
	// Every item's fold, looked up once; the negatives sorted once with
	// their folds: a fold's training negatives are the sorted ones of the
	// other folds, in order (as thresholdSorted needs them).
	fold := make([]int, len(items))
	var neg []foldScore
	for i, it := range items {
		fold[i] = out.FoldOf[it.Task]
		if !it.Positive {
			neg = append(neg, foldScore{it.Score, fold[i]})
		}
	}
	if len(neg) == 0 {
		return CrossFit{}, fmt.Errorf("cross-fit: no negatives")
	}
	slices.SortFunc(neg, func(a, b foldScore) int { return cmp.Compare(a.score, b.score) })
	train := make([]float64, 0, len(neg))
	for f := -1; f < k; f++ { // fold −1: Threshold, on all the negatives
		train = train[:0]
		for _, e := range neg {
			if e.fold != f {
				train = append(train, e.score)
			}
		}
		if f < 0 {
			out.Threshold = thresholdSorted(train, opts.TargetFPR)
			continue
		}
		if len(train) == 0 {
			return CrossFit{}, fmt.Errorf("cross-fit: fold %d: no negatives outside the fold to calibrate on", f)
		}
		t := thresholdSorted(train, opts.TargetFPR)
		out.FoldThresholds[f] = t
		for i, it := range items {
			if fold[i] != f {
				continue
			}
			accept := it.Score >= t
			switch {
			case it.Positive && accept:
				out.TP++
			case it.Positive:
				out.FN++
			case accept:
				out.FP++
			default:
				out.TN++
			}
		}
	}
	return out, nil
}

// foldScore is a negative's score and its fold.
type foldScore struct {
	score float64
	fold  int
}
