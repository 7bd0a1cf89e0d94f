package metrics

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

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
	out[0] = div(fp, fp+tn)
	out[1] = div(fp, fp+tp)
	out[2] = div(tp, tp+fn)
	out[3] = div(tp+fp, n)
	out[4] = div(tp+fn, n)
	out[5] = div(fp-fn, n)
	out[6] = div(s[colAgree], s[colElig])
	out[7] = div(s[colUnc], s[colEps])
	out[8] = div(s[colParse], s[colRuns])
	out[9] = kappaOf(tp, fp, fn, tn)
	out[10] = math.NaN()
	if s[colElig] > 0 {
		out[10] = fleiss(1, s[colFleissP]/s[colElig], s[colFSucc], s[colFFail], s[colFUnc])
	}
	out[11] = div(tp+tn, n)
}

// tallyCols returns a tally as columns.
func tallyCols(t *tally) [nCols]float64 {
	return [nCols]float64{float64(t.tp), float64(t.fp), float64(t.tn), float64(t.fn), float64(t.eps), float64(t.unc),
		float64(t.runs), float64(t.parse), float64(t.eligible), float64(t.agree), t.fleissP,
		float64(t.fvSucc), float64(t.fvFail), float64(t.fvUnc)}
}

// bootJob is one row to bootstrap: its per-task columns, stored column by
// column, with the all-zero columns left out. A job of fprOnly keeps only
// the columns of the FPR (FP and TN) and sets only its interval.
type bootJob struct {
	row     *Row
	fprOnly bool
	tasks   []int       // task indices with data, ascending
	use     []int       // columns that are not all zero
	cols    [][]float64 // cols[c][k]: column use[c] of task tasks[k]
	fp, tn  []float64   // fprOnly: the FP and TN columns (nil when all zero)
}

func newBootJob(r *Row, a *rowAcc, fprOnly bool) *bootJob {
	j := &bootJob{row: r, fprOnly: fprOnly}
	for task := range a.byTask {
		j.tasks = append(j.tasks, task)
	}
	slices.Sort(j.tasks)
	all := make([][nCols]float64, len(j.tasks))
	for k, task := range j.tasks {
		all[k] = tallyCols(a.byTask[task])
	}
	for c := range nCols {
		col := make([]float64, len(j.tasks))
		nonzero := false
		for k := range all {
			col[k] = all[k][c]
			nonzero = nonzero || col[k] != 0
		}
		if nonzero && (!fprOnly || c == colFP || c == colTN) {
			j.use = append(j.use, c)
			j.cols = append(j.cols, col)
			switch {
			case fprOnly && c == colFP:
				j.fp = col
			case fprOnly && c == colTN:
				j.tn = col
			}
		}
	}
	return j
}

// eval sums the job's columns with cluster multiplicities w, in task
// order; wk is scratch space of len(j.tasks).
func (j *bootJob) eval(w, wk []float64, out *[bootMetrics]float64) {
	if j.fprOnly {
		out[0] = j.fpr(w)
		return
	}
	wk = wk[:len(j.tasks)]
	for k, task := range j.tasks {
		wk[k] = w[task]
	}
	var s [nCols]float64
	for c, col := range j.cols {
		s[j.use[c]] = dot(wk, col)
	}
	fromSums(&s, out)
}

// fpr is the FPR of a fprOnly job under cluster multiplicities w, in one
// pass over its tasks: FP and TN are integer counts, so the sums are exact
// in any order and equal those of eval.
func (j *bootJob) fpr(w []float64) float64 {
	var fp, tn float64
	for k, task := range j.tasks {
		wt := w[task]
		if j.fp != nil {
			fp += wt * j.fp[k]
		}
		if j.tn != nil {
			tn += wt * j.tn[k]
		}
	}
	if fp+tn == 0 {
		return math.NaN()
	}
	return fp / (fp + tn)
}

// dot returns Σ a[i]·b[i] with four interleaved partial sums (a fixed
// order, so the result is reproducible; exact for the integer counts).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// bootstrapRows sets the bootstrap intervals of every metric of every job's
// row in one pass: a single stats.ClusterBootstrap draws the resamples
// (tasks with replacement; the same draws stats.BootstrapRatios makes for
// these ids and options) and every job is evaluated on each, so the cost is
// resamples × Σ tasks per row, whatever the number of metrics. Resamples
// where a metric is undefined are skipped; the bounds are the type-7
// percentiles stats uses. A metric undefined on the full sample keeps a
// null interval.
func bootstrapRows(jobs []*bootJob, ids []string, opts stats.BootstrapOptions) error {
	if len(jobs) == 0 || len(ids) < 2 {
		return nil
	}
	resamples := opts.Resamples
	if resamples == 0 {
		resamples = stats.DefaultResamples
	}
	width := len(jobs) * bootMetrics
	vals := make([]float64, resamples*width)
	var started, next atomic.Int64
	_, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
		if started.Add(1) == 1 {
			return 0 // the first call is the estimate on the original sample: known already
		}
		w, wk := make([]float64, len(ids)), make([]float64, len(ids))
		for _, i := range idx {
			w[i]++
		}
		slot := next.Add(1) - 1
		row := vals[int(slot)*width : int(slot+1)*width]
		var out [bootMetrics]float64
		for k, j := range jobs {
			j.eval(w, wk, &out)
			copy(row[k*bootMetrics:], out[:])
		}
		return 0
	}, opts)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	alpha := opts.Alpha
	if alpha == 0 {
		alpha = stats.DefaultAlpha
	}
	col := make([]float64, resamples)
	for k, j := range jobs {
		for m, target := range rowMetrics(j.row) {
			if math.IsNaN(target.Value) || j.fprOnly && target != &j.row.FPR {
				continue
			}
			for r := range resamples {
				col[r] = vals[r*width+k*bootMetrics+m]
			}
			target.Boot = percentiles(col, alpha)
		}
	}
	return nil
}

// percentiles returns the alpha/2 and 1−alpha/2 quantiles of the non-NaN
// values by linear interpolation between order statistics (type 7, as
// stats' bootstrap intervals), or NaNs when none is left. It reorders vals.
func percentiles(vals []float64, alpha float64) [2]float64 {
	kept := vals[:0]
	for _, v := range vals {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	q := func(p float64) float64 {
		h := p * float64(len(kept)-1)
		i := int(math.Floor(h))
		lo := selectNth(kept, i)
		if i >= len(kept)-1 || h == float64(i) {
			return lo
		}
		hi := slices.Min(kept[i+1:]) // after selectNth, the (i+1)-th smallest
		return lo + (h-float64(i))*(hi-lo)
	}
	return [2]float64{q(alpha / 2), q(1 - alpha/2)}
}

// selectNth reorders xs so that xs[n] is the n-th smallest (0-based), with
// no larger value before it and no smaller one after it, and returns it
// (Hoare's quickselect with a median-of-three pivot).
func selectNth(xs []float64, n int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return xs[n]
		}
	}
	return xs[n]
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
