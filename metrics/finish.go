package metrics

import (
	"fmt"
	"math"

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
// tallies with tasks (ids) as clusters, all ratio statistics of the report
// in one stats.BootstrapRatios batch.
func finishRows(accs []*rowAcc, ids []string, opts Options, rep *Report) ([]Row, error) {
	rows := make([]Row, len(accs))
	defs := ratioDefs()
	bopts := stats.BootstrapOptions{Resamples: opts.Resamples, Alpha: opts.Alpha, Seed: opts.Seed, Workers: opts.Workers}
	var (
		batch   []stats.RatioStat
		targets []*Metric
		few     int
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
		r.NTasks = len(a.byTask)
		for _, d := range defs {
			m := d.field(r)
			if d.wilson {
				*m = wilsonMetric(d.num(t), d.den(t), opts.Alpha)
			} else {
				*m = ratioMetric(d.num(t), d.den(t))
			}
		}
		r.Kappa = undefined(false)
		r.Kappa.Value = stats.CohenKappa(t.tp, t.fp, t.fn, t.tn)
		r.FleissKappa = undefined(false)
		r.FleissKappa.Value = fleiss(t.eligible, t.fleissP, float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc))

		if len(a.byTask) < 2 || len(ids) < 2 {
			few++
			continue
		}
		for _, d := range defs {
			if d.den(t) == 0 {
				continue // undefined on every resample
			}
			num, den := make([]float64, len(ids)), make([]float64, len(ids))
			for task, tt := range a.byTask {
				num[task], den[task] = float64(d.num(tt)), float64(d.den(tt))
			}
			batch = append(batch, stats.RatioStat{A: stats.Ratio{Num: num, Den: den}})
			targets = append(targets, d.field(r))
		}
		if err := bootKappas(r, a, ids, bopts); err != nil {
			return nil, err
		}
	}
	ivs, err := stats.BootstrapRatios(ids, batch, bopts)
	if err != nil {
		return nil, fmt.Errorf("bootstrap: %w", err)
	}
	for i, iv := range ivs {
		if iv.OK {
			targets[i].Boot = [2]float64{iv.Lo, iv.Hi}
		}
	}
	switch {
	case len(ids) < 2:
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("only %d task: bootstrap intervals are null (they resample tasks)", len(ids)))
	case few > 0:
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d row(s) hold episodes of fewer than two tasks: their bootstrap intervals are null", few))
	}
	return rows, nil
}

// bootKappas sets the bootstrap intervals of Cohen's and Fleiss' κ, which
// are not ratios of sums: each resample sums the row's per-task tallies
// over the drawn tasks. The draws are those of BootstrapRatios for the same
// ids and options.
func bootKappas(r *Row, a *rowAcc, ids []string, bopts stats.BootstrapOptions) error {
	n := len(ids)
	type cols struct{ tp, fp, fn, tn, elig, succ, fail, unc, p []float64 }
	c := cols{}
	for _, p := range []*[]float64{&c.tp, &c.fp, &c.fn, &c.tn, &c.elig, &c.succ, &c.fail, &c.unc, &c.p} {
		*p = make([]float64, n)
	}
	for task, t := range a.byTask {
		c.tp[task], c.fp[task], c.fn[task], c.tn[task] = float64(t.tp), float64(t.fp), float64(t.fn), float64(t.tn)
		c.elig[task], c.succ[task], c.fail[task], c.unc[task] = float64(t.eligible), float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc)
		c.p[task] = t.fleissP
	}
	if !math.IsNaN(r.Kappa.Value) {
		iv, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
			var tp, fp, fn, tn float64
			for _, i := range idx {
				tp += c.tp[i]
				fp += c.fp[i]
				fn += c.fn[i]
				tn += c.tn[i]
			}
			return kappaOf(tp, fp, fn, tn)
		}, bopts)
		if err != nil {
			return fmt.Errorf("bootstrap kappa: %w", err)
		}
		if iv.OK {
			r.Kappa.Boot = [2]float64{iv.Lo, iv.Hi}
		}
	}
	if !math.IsNaN(r.FleissKappa.Value) {
		iv, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
			var elig, succ, fail, unc, p float64
			for _, i := range idx {
				elig += c.elig[i]
				succ += c.succ[i]
				fail += c.fail[i]
				unc += c.unc[i]
				p += c.p[i]
			}
			if elig == 0 {
				return math.NaN()
			}
			return fleiss(1, p/elig, succ, fail, unc)
		}, bopts)
		if err != nil {
			return fmt.Errorf("bootstrap fleiss kappa: %w", err)
		}
		if iv.OK {
			r.FleissKappa.Boot = [2]float64{iv.Lo, iv.Hi}
		}
	}
	return nil
}

// kappaOf is Cohen's κ on real-valued (resample-weighted) counts, the same
// formula as stats.CohenKappa.
func kappaOf(tp, fp, fn, tn float64) float64 {
	n := tp + fp + fn + tn
	if n == 0 {
		return math.NaN()
	}
	po := (tp + tn) / n
	jy, gy := (tp+fp)/n, (tp+fn)/n
	pe := jy*gy + (1-jy)*(1-gy)
	if pe >= 1 {
		return math.NaN()
	}
	return (po - pe) / (1 - pe)
}
