package metrics

import (
	"fmt"

	"github.com/trustlake/trustlake/stats"
)

// wilsonMetric returns k/n with its Wilson interval (NaN when n is 0) and
// an unset bootstrap interval.
func wilsonMetric(k, n int, alpha float64) Metric {
	m := undefined(true)
	if n > 0 {
		m.Value = float64(k) / float64(n)
		m.Wilson[0], m.Wilson[1] = stats.Wilson(k, n, alpha)
	}
	return m
}

// ratioMetric returns num/den without a Wilson interval.
func ratioMetric(num, den int) Metric {
	m := undefined(false)
	if den > 0 {
		m.Value = float64(num) / float64(den)
	}
	return m
}

// finishRows computes every metric of every row: point estimates and
// Wilson intervals from the totals, bootstrap intervals from the per-task
// tallies with tasks (ids) as clusters (bootstrapRows). Rows holding fewer
// than two tasks get null bootstrap intervals.
func finishRows(accs []*rowAcc, ids []string, opts Options, rep *Report) ([]Row, error) {
	rows := make([]Row, len(accs))
	var (
		jobs []*bootJob
		few  int
	)
	for i, a := range accs {
		r := &rows[i]
		t := &a.total
		r.Judge, r.Condition = a.key.judge, a.key.condition
		r.Stratum = map[string]string{}
		if a.key.dim != "" {
			r.Stratum[a.key.dim] = a.key.value
		}
		r.NEpisodes, r.NUncertain = t.eps, t.unc
		r.TP, r.FP, r.TN, r.FN = t.tp, t.fp, t.tn, t.fn
		r.NPos, r.NNeg = t.tp+t.fn, t.fp+t.tn
		r.NRuns, r.NParseError = t.runs, t.parse
		r.NEligible, r.NAgree = t.eligible, t.agree
		r.NTasks = len(a.tasks)
		for _, d := range ratioDefs() {
			m := d.field(r)
			if d.wilson {
				*m = wilsonMetric(d.num(t), d.den(t), opts.Alpha)
			} else {
				*m = ratioMetric(d.num(t), d.den(t))
			}
		}
		r.Kappa = undefined(false)
		if r.NPos > 0 && r.NNeg > 0 { // κ is 0 by construction when the GT is constant
			r.Kappa.Value = stats.CohenKappa(t.tp, t.fp, t.fn, t.tn)
		}
		r.FleissKappa = undefined(false)
		r.FleissKappa.Value = fleiss(t.eligible, t.fleissP, float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc))
		if len(a.tasks) < 2 || len(ids) < 2 {
			few++
			continue
		}
		jobs = append(jobs, newBootJob(r, a, opts.StrataFPROnly && a.key.dim != ""))
	}
	err := bootstrapRows(jobs, ids, opts.boot(opts.Workers))
	if err != nil {
		return nil, err
	}
	switch {
	case len(ids) < 2:
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("only %d task: bootstrap intervals are null (they resample tasks)", len(ids)))
	case few > 0:
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d row(s) hold episodes of fewer than two tasks: their bootstrap intervals are null", few))
	}
	return rows, nil
}
