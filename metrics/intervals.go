package metrics

import (
	"fmt"
	"math"
	"slices"

	"github.com/trustlake/trustlake/stats"
)

// Columns of a bootJob: the tally fields every metric is computed from.
const (
	colTP = iota
	colFP
	colTN
	colFN
	colEps
	colUnc
	colRuns
	colParse
	colElig
	colAgree
	colFleissP
	colFSucc
	colFFail
	colFUnc
	nCols
)

// bootMetrics is the number of bootstrapped metrics per row, in the order
// of rowMetrics.
const bootMetrics = 12

// rowMetrics returns a row's metrics in the order of fromSums.
func rowMetrics(r *Row) [bootMetrics]*Metric {
	return [bootMetrics]*Metric{&r.FPR, &r.FDR, &r.TPR, &r.JudgeSuccessRate, &r.GTSuccessRate, &r.Inflation,
		&r.SelfConsistency, &r.UncertainRate, &r.ParseErrorRate, &r.Kappa, &r.FleissKappa, &r.Accuracy}
}

// fromSums computes every metric from (resample-weighted) column sums, NaN
// where undefined: the same formulas as the point estimates.
func fromSums(s *[nCols]float64, out *[bootMetrics]float64) {
	div := func(a, b float64) float64 {
		if b == 0 {
			return math.NaN()
		}
		return a / b
	}
	tp, fp, tn, fn := s[colTP], s[colFP], s[colTN], s[colFN]
	n := tp + fp + tn + fn
	out[0] = fprOf(s)
	out[1] = div(fp, fp+tp)
	out[2] = div(tp, tp+fn)
	out[3] = div(tp+fp, n)
	out[4] = div(tp+fn, n)
	out[5] = div(fp-fn, n)
	out[6] = div(s[colAgree], s[colElig])
	out[7] = div(s[colUnc], s[colEps])
	out[8] = div(s[colParse], s[colRuns])
	out[9] = kappaOf(tp, fp, fn, tn)
	out[10] = fleiss(s[colElig], s[colFleissP], s[colFSucc], s[colFFail], s[colFUnc])
	out[11] = div(tp+tn, n)
}

// fprOf is fromSums' FPR: FP / (FP + TN), NaN when that is 0.
func fprOf(s *[nCols]float64) float64 {
	fp, tn := s[colFP], s[colTN]
	if fp+tn == 0 {
		return math.NaN()
	}
	return fp / (fp + tn)
}

// tallyCols returns a tally as columns.
func tallyCols(t *tally) [nCols]float64 {
	return [nCols]float64{float64(t.tp), float64(t.fp), float64(t.tn), float64(t.fn), float64(t.eps), float64(t.unc),
		float64(t.runs), float64(t.parse), float64(t.eligible), float64(t.agree), t.fleissP,
		float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc)}
}

// bootJob is one row to bootstrap: its per-task columns, stored column by
// column. A job of fprOnly keeps only
// the columns of the FPR (FP and TN) and sets only its interval.
type bootJob struct {
	row     *Row
	fprOnly bool
	tasks   []int       // task indices with data, ascending
	use     []int       // the columns kept
	cols    [][]float64 // cols[c][k]: column use[c] of task tasks[k]
	metrics []int       // the metrics to bootstrap (indices into rowMetrics): those defined on the full sample
}

func newBootJob(r *Row, a *rowAcc, fprOnly bool) *bootJob {
	j := &bootJob{row: r, fprOnly: fprOnly, tasks: a.tasks}
	all := make([][nCols]float64, len(j.tasks))
	for k := range a.tallies {
		all[k] = tallyCols(&a.tallies[k])
	}
	for c := range nCols {
		if fprOnly && c != colFP && c != colTN {
			continue
		}
		col := make([]float64, len(all))
		for k := range all {
			col[k] = all[k][c]
		}
		j.use = append(j.use, c)
		j.cols = append(j.cols, col)
	}
	for m, target := range rowMetrics(r) {
		if !math.IsNaN(target.Value) && (!fprOnly || target == &r.FPR) {
			j.metrics = append(j.metrics, m)
		}
	}
	return j
}

// group is the job as a statistics group of stats.BootstrapSums: its
// columns' sums give its metrics.
func (j *bootJob) group(n int) stats.SumGroup {
	g := stats.SumGroup{Clusters: j.tasks, Cols: j.cols, Values: len(j.metrics)}
	if len(j.tasks) == n {
		g.Clusters = nil
	}
	g.Eval = func(sums, out []float64) {
		var s [nCols]float64
		for c, v := range sums {
			s[j.use[c]] = v
		}
		if j.fprOnly { // its one metric, as fromSums computes it
			out[0] = fprOf(&s)
			return
		}
		var all [bootMetrics]float64
		fromSums(&s, &all)
		for i, m := range j.metrics {
			out[i] = all[m]
		}
	}
	return g
}

// bootstrapRows sets the bootstrap intervals of every metric of every job's
// row from one stats.BootstrapSums over the tasks ids (the draws of every
// other bootstrap of the same tasks and options). A metric undefined on the full sample keeps a null interval.
func bootstrapRows(jobs []*bootJob, ids []string, opts stats.BootstrapOptions) error {
	jobs = slices.DeleteFunc(slices.Clone(jobs), func(j *bootJob) bool { return len(j.metrics) == 0 })
	if len(jobs) == 0 || len(ids) < 2 {
		return nil
	}
	// A job equal to an earlier one (the natural source's row is the
	// overall row) takes its intervals: the same sums give the same values.
	same := make([]int, len(jobs)) // same[k]: the group of job k
	var groups []stats.SumGroup
	var first []*bootJob // first[g]: the job of group g
	for k, j := range jobs {
		same[k] = slices.IndexFunc(first, j.equal)
		if same[k] < 0 {
			same[k] = len(groups)
			groups = append(groups, j.group(len(ids)))
			first = append(first, j)
		}
	}
	ivs, err := stats.BootstrapSums(ids, groups, opts)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	for k, j := range jobs {
		all := rowMetrics(j.row)
		for i, m := range j.metrics {
			all[m].Boot = bounds(ivs[same[k]][i])
		}
	}
	return nil
}

// equal reports whether o bootstraps the same metrics from the same
// columns of the same tasks as j.
func (j *bootJob) equal(o *bootJob) bool {
	if j.fprOnly != o.fprOnly || len(j.tasks) != len(o.tasks) || !slices.Equal(j.metrics, o.metrics) ||
		!slices.Equal(j.use, o.use) || !slices.Equal(j.tasks, o.tasks) {
		return false
	}
	for c := range j.cols {
		if !slices.Equal(j.cols[c], o.cols[c]) {
			return false
		}
	}
	return true
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
		// Point estimates: the bootstrap's formulas (fromSums) on the totals.
		var vals [bootMetrics]float64
		cols := tallyCols(t)
		fromSums(&cols, &vals)
		props := proportions(t)
		for m, target := range rowMetrics(r) {
			k, n := props[m][0], props[m][1]
			*target = undefined(n >= 0)
			target.Value = vals[m]
			if n > 0 {
				target.Wilson[0], target.Wilson[1] = stats.Wilson(k, n, opts.Alpha)
			}
		}
		if len(a.tasks) < 2 || len(ids) < 2 {
			few++
			continue
		}
		jobs = append(jobs, newBootJob(r, a, opts.StrataFPROnly && a.key.dim != ""))
	}
	err := bootstrapRows(jobs, ids, opts.boot())
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
