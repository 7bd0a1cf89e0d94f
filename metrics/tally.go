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

// fleiss returns Fleiss' κ across runs from the pooled sums: P̄ is the mean
// observed agreement of the eligible episodes and Pe the chance agreement
// from the pooled verdict shares, as in stats.FleissKappa. NaN when no
// episode has two valid runs or all runs give one verdict.
func fleiss(eligible int, sumP float64, succ, fail, unc float64) float64 {
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
	return (sumP/float64(eligible) - pe) / (1 - pe)
}

// ratioDef is one proportion-like metric as Σ num / Σ den over tasks.
type ratioDef struct {
	num, den func(t *tally) int
	wilson   bool
	field    func(r *Row) *Metric
}

// ratioDefs lists the ratio metrics of a row (all but κ and Fleiss' κ).
func ratioDefs() []ratioDef {
	return []ratioDef{
		{func(t *tally) int { return t.fp }, func(t *tally) int { return t.fp + t.tn }, true, func(r *Row) *Metric { return &r.FPR }},
		{func(t *tally) int { return t.fp }, func(t *tally) int { return t.fp + t.tp }, true, func(r *Row) *Metric { return &r.FDR }},
		{func(t *tally) int { return t.tp }, func(t *tally) int { return t.tp + t.fn }, true, func(r *Row) *Metric { return &r.TPR }},
		{func(t *tally) int { return t.tp + t.fp }, (*tally).n, true, func(r *Row) *Metric { return &r.JudgeSuccessRate }},
		{func(t *tally) int { return t.tp + t.fn }, (*tally).n, true, func(r *Row) *Metric { return &r.GTSuccessRate }},
		// Judge minus GT success rate = (FP − FN) / n.
		{func(t *tally) int { return t.fp - t.fn }, (*tally).n, false, func(r *Row) *Metric { return &r.Inflation }},
		{func(t *tally) int { return t.agree }, func(t *tally) int { return t.eligible }, true, func(r *Row) *Metric { return &r.SelfConsistency }},
		{func(t *tally) int { return t.unc }, func(t *tally) int { return t.eps }, true, func(r *Row) *Metric { return &r.UncertainRate }},
		{func(t *tally) int { return t.parse }, func(t *tally) int { return t.runs }, true, func(r *Row) *Metric { return &r.ParseErrorRate }},
		{func(t *tally) int { return t.tp + t.tn }, (*tally).n, true, func(r *Row) *Metric { return &r.Accuracy }},
	}
}
