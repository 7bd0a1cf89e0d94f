package metrics

import (
	"fmt"
	"math"
	"slices"
	"sync"

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
		kjobs   []*kappaJob
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
		if r.NPos > 0 && r.NNeg > 0 { // κ is 0 by construction when the GT is constant
			r.Kappa.Value = stats.CohenKappa(t.tp, t.fp, t.fn, t.tn)
		}
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
		if !math.IsNaN(r.Kappa.Value) || !math.IsNaN(r.FleissKappa.Value) {
			kjobs = append(kjobs, newKappaJob(r, a, len(ids)))
		}
	}
	if err := bootKappas(kjobs, ids, bopts); err != nil {
		return nil, err
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

// kappaJob holds one row's per-task columns for the κ bootstraps.
type kappaJob struct {
	row                                      *Row
	tasks                                    []int // tasks with data, ascending
	tp, fp, fn, tn, elig, succ, fail, unc, p []float64
}

func newKappaJob(r *Row, a *rowAcc, n int) *kappaJob {
	j := &kappaJob{row: r}
	for task := range a.byTask {
		j.tasks = append(j.tasks, task)
	}
	slices.Sort(j.tasks)
	for _, p := range []*[]float64{&j.tp, &j.fp, &j.fn, &j.tn, &j.elig, &j.succ, &j.fail, &j.unc, &j.p} {
		*p = make([]float64, n)
	}
	for task, t := range a.byTask {
		j.tp[task], j.fp[task], j.fn[task], j.tn[task] = float64(t.tp), float64(t.fp), float64(t.fn), float64(t.tn)
		j.elig[task], j.succ[task], j.fail[task], j.unc[task] = float64(t.eligible), float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc)
		j.p[task] = t.fleissP
	}
	return j
}

// eval returns Cohen's and Fleiss' κ of the job's row on a resample given
// by cluster multiplicities w.
func (j *kappaJob) eval(w []float64) (kappa, fk float64) {
	var tp, fp, fn, tn, elig, succ, fail, unc, p float64
	for _, i := range j.tasks {
		wi := w[i]
		if wi == 0 {
			continue
		}
		tp += wi * j.tp[i]
		fp += wi * j.fp[i]
		fn += wi * j.fn[i]
		tn += wi * j.tn[i]
		elig += wi * j.elig[i]
		succ += wi * j.succ[i]
		fail += wi * j.fail[i]
		unc += wi * j.unc[i]
		p += wi * j.p[i]
	}
	kappa, fk = kappaOf(tp, fp, fn, tn), math.NaN()
	if elig > 0 {
		fk = fleiss(1, p/elig, succ, fail, unc)
	}
	return kappa, fk
}

// bootKappas sets the bootstrap intervals of Cohen's and Fleiss' κ, which
// are not ratios of sums, for all jobs in one pass: a single
// stats.ClusterBootstrap draws the resamples (the draws of BootstrapRatios
// for the same ids and options) and every job is evaluated on each.
// Percentiles are taken as stats does (type 7), NaN resamples skipped.
func bootKappas(jobs []*kappaJob, ids []string, bopts stats.BootstrapOptions) error {
	if len(jobs) == 0 || len(ids) < 2 {
		return nil
	}
	var (
		mu    sync.Mutex
		calls int
		vals  = make([][]float64, 2*len(jobs)) // per job: κ, then Fleiss' κ
	)
	_, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
		mu.Lock()
		first := calls == 0
		calls++
		mu.Unlock()
		if first {
			return 0 // the estimate on the original sample: already known
		}
		w := make([]float64, len(ids))
		for _, i := range idx {
			w[i]++
		}
		out := make([]float64, 2*len(jobs))
		for k, j := range jobs {
			out[2*k], out[2*k+1] = j.eval(w)
		}
		mu.Lock()
		for k, v := range out {
			vals[k] = append(vals[k], v)
		}
		mu.Unlock()
		return 0
	}, bopts)
	if err != nil {
		return fmt.Errorf("bootstrap kappa: %w", err)
	}
	alpha := bopts.Alpha
	if alpha == 0 {
		alpha = stats.DefaultAlpha
	}
	for k, j := range jobs {
		if !math.IsNaN(j.row.Kappa.Value) {
			j.row.Kappa.Boot = percentiles(vals[2*k], alpha)
		}
		if !math.IsNaN(j.row.FleissKappa.Value) {
			j.row.FleissKappa.Boot = percentiles(vals[2*k+1], alpha)
		}
	}
	return nil
}

// percentiles returns the alpha/2 and 1−alpha/2 quantiles of the non-NaN
// values by linear interpolation between order statistics (type 7, as
// stats' bootstrap intervals), or NaNs when none is left.
func percentiles(vals []float64, alpha float64) [2]float64 {
	kept := make([]float64, 0, len(vals))
	for _, v := range vals {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	slices.Sort(kept)
	q := func(p float64) float64 {
		h := p * float64(len(kept)-1)
		i := int(math.Floor(h))
		if i >= len(kept)-1 {
			return kept[len(kept)-1]
		}
		return kept[i] + (h-float64(i))*(kept[i+1]-kept[i])
	}
	return [2]float64{q(alpha / 2), q(1 - alpha/2)}
}

// kappaOf is Cohen's κ on real-valued (resample-weighted) counts, the same
// formula as stats.CohenKappa; NaN when the GT is constant, as for the
// point estimate.
func kappaOf(tp, fp, fn, tn float64) float64 {
	n := tp + fp + fn + tn
	if tp+fn == 0 || fp+tn == 0 {
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
