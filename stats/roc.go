package stats

import (
	"cmp"
	"math"
	"slices"
)

// labelled is a score with its label.
type labelled struct {
	score    float64
	positive bool
}

// sortedLabels returns the scores with their labels sorted ascending (dir
// 1) or descending (dir -1) and the counts of positives and negatives;
// false when the lengths differ, a score is NaN or a class is empty.
// Scores are compared only for order: ties keep no particular order, which
// the callers (grouping ties) never see.
func sortedLabels(scores []float64, positive []bool, dir int) (out []labelled, nPos, nNeg float64, ok bool) {
	if len(scores) != len(positive) {
		return nil, 0, 0, false
	}
	out = make([]labelled, len(scores))
	for i, x := range scores {
		if math.IsNaN(x) {
			return nil, 0, 0, false
		}
		out[i] = labelled{x, positive[i]}
		if positive[i] {
			nPos++
		} else {
			nNeg++
		}
	}
	slices.SortFunc(out, func(a, b labelled) int { return dir * cmp.Compare(a.score, b.score) })
	return out, nPos, nNeg, nPos > 0 && nNeg > 0
}

// ROCAUC returns the area under the ROC curve of scores against labels
// (positive[i] true for a ground-truth success), computed as the
// Mann–Whitney statistic: the probability that a random positive scores
// above a random negative, ties counting one half. It returns NaN when the
// lengths differ, a score is NaN, or there are no positives or no negatives.
// Cost is O(n log n).
func ROCAUC(scores []float64, positive []bool) float64 {
	order, nPos, nNeg, ok := sortedLabels(scores, positive, 1)
	if !ok {
		return math.NaN()
	}
	var rankSumPos float64
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && order[j].score == order[i].score {
			j++
		}
		midRank := float64(i+j+1) / 2 // ranks i+1..j share their mean
		for _, e := range order[i:j] {
			if e.positive {
				rankSumPos += midRank
			}
		}
		i = j
	}
	return (rankSumPos - nPos*(nPos+1)/2) / (nPos * nNeg)
}

// thresholdSorted returns the smallest threshold t among the distinct
// negative scores s (sorted ascending, without NaN, not empty), and the
// value just above the largest one, such that the share of negatives with
// score >= t is at most target (in [0, 1]); a score >= t then counts as
// success. Between two consecutive negative scores the share is constant,
// so t is the lowest cut point that keeps the false-positive rate on these
// negatives within target; when even the largest score is too frequent, t
// is math.Nextafter(max, +Inf) and nothing is accepted.
func thresholdSorted(s []float64, target float64) float64 {
	n := float64(len(s))
	// Walk distinct values from the smallest; at value s[i] the share of
	// negatives >= s[i] is (len−i)/len.
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			continue
		}
		if float64(len(s)-i)/n <= target {
			return s[i]
		}
	}
	return math.Nextafter(s[len(s)-1], math.Inf(1))
}

// ROCPoint is one point of a ROC curve: accepting scores >= Threshold
// gives false-positive rate FPR and true-positive rate TPR.
type ROCPoint struct {
	Threshold, FPR, TPR float64
}

// ROCCurve returns the ROC curve of scores against labels: one point per
// distinct score, from the highest threshold down, preceded by (0, 0) at
// +Inf; the last point is (1, 1) at the lowest score. Ties move FPR and
// TPR together, so the curve's trapezoid area equals ROCAUC. It returns
// nil when the lengths differ, a score is NaN, or a class is empty.
func ROCCurve(scores []float64, positive []bool) []ROCPoint {
	order, nPos, nNeg, ok := sortedLabels(scores, positive, -1)
	if !ok {
		return nil
	}
	out := []ROCPoint{{Threshold: math.Inf(1)}}
	var tp, fp float64
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && order[j].score == order[i].score {
			if order[j].positive {
				tp++
			} else {
				fp++
			}
			j++
		}
		out = append(out, ROCPoint{Threshold: order[i].score, FPR: fp / nNeg, TPR: tp / nPos})
		i = j
	}
	return out
}
