package stats

import "math"

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
	if len(scores) != len(positive) {
		return nil
	}
	order, ok := sortedLabels(scores, positive, -1)
	if !ok {
		return nil
	}
	var nPos, nNeg float64
	for _, e := range order {
		if e.positive {
			nPos++
		} else {
			nNeg++
		}
	}
	if nPos == 0 || nNeg == 0 {
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
