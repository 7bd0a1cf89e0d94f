package metrics

import (
	"math"

	"github.com/trustlake/trustlake/queries"
)

// tally holds the sufficient statistics of one row in one task (or, summed,
// in all tasks): every metric is a function of these counts.
type tally struct {
	eps, unc              int // episodes; of those, majority uncertain
	tp, fp, tn, fn        int // after the uncertain policy
	runs, parse           int // runs; of those, parse errors
	eligible, agree       int // episodes with >= 2 valid runs; of those, unanimous
	fleissP               float64
	fvSucc, fvFail, fvUnc int // valid runs of eligible episodes per verdict
}

// addCell adds a cell's episodes, mapping majority verdicts against the
// cell's ground truth under the uncertain policy.
func (t *tally) addCell(c *queries.MetricCell, policy string) {
	succ, fail := c.MajSuccess, c.MajFailure
	switch policy {
	case UncertainFailure:
		fail += c.MajUncertain
	case UncertainSuccess:
		succ += c.MajUncertain
	}
	if c.GTPass {
		t.tp += succ
		t.fn += fail
	} else {
		t.fp += succ
		t.tn += fail
	}
	t.eps += c.Episodes
	t.unc += c.MajUncertain
	t.runs += c.Runs
	t.parse += c.ParseErrors
	t.eligible += c.Eligible
	t.agree += c.Agree
	t.fleissP += c.FleissP
	t.fvSucc += c.FleissSuccess
	t.fvFail += c.FleissFailure
	t.fvUnc += c.FleissUncertain
}

// n is the number of episodes in the confusion matrix.
func (t *tally) n() int { return t.tp + t.fp + t.tn + t.fn }

// fleiss returns Fleiss' κ across runs from the pooled sums: P̄ = sumP /
// eligible is the mean observed agreement of the eligible episodes and Pe the chance agreement
// from the pooled verdict shares, as in stats.FleissKappa. NaN when no
// episode has two valid runs or all runs give one verdict.
func fleiss(eligible, sumP, succ, fail, unc float64) float64 {
	total := succ + fail + unc
	if eligible == 0 || total == 0 {
		return math.NaN()
	}
	pe := 0.0
	for _, x := range []float64{succ, fail, unc} {
		pe += (x / total) * (x / total)
	}
	if pe >= 1 {
		return math.NaN()
	}
	return (sumP/eligible - pe) / (1 - pe)
}

// proportions returns, per metric of rowMetrics, the counts k/n of a
// proportion (which has a Wilson interval); n is -1 for the others.
func proportions(t *tally) [bootMetrics][2]int {
	n, none := t.n(), [2]int{0, -1}
	return [bootMetrics][2]int{{t.fp, t.fp + t.tn}, {t.fp, t.fp + t.tp}, {t.tp, t.tp + t.fn}, {t.tp + t.fp, n},
		{t.tp + t.fn, n}, none, {t.agree, t.eligible}, {t.unc, t.eps}, {t.parse, t.runs}, none, none, {t.tp + t.tn, n}}
}
