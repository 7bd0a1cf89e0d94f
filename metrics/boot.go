package metrics

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

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
	metrics []int       // the metrics to bootstrap (indices into rowMetrics): those defined on the full sample
	// Set by packLanes: where the integer columns are summed; the other
	// columns (floats: indices into use) are summed by dot in task order.
	lanes  []lane
	floats []int
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
		}
	}
	for m, target := range rowMetrics(r) {
		if !math.IsNaN(target.Value) && (!fprOnly || target == &r.FPR) {
			j.metrics = append(j.metrics, m)
		}
	}
	return j
}

// eval computes the job's metrics from one resample's sums: acc holds the
// packed integer columns (packing.sum), wf the clusters' multiplicities as
// floats; wk is scratch space of len(wf).
func (j *bootJob) eval(acc []uint64, wf, wk []float64, out *[bootMetrics]float64) {
	var s [nCols]float64
	for _, l := range j.lanes {
		s[j.use[l.c]] = float64(acc[l.word] >> l.shift & l.mask)
	}
	if len(j.floats) > 0 {
		w := wf
		if len(j.tasks) < len(wf) {
			w = wk[:len(j.tasks)]
			for k, task := range j.tasks {
				w[k] = wf[task]
			}
		}
		for _, c := range j.floats {
			s[j.use[c]] = dot(w, j.cols[c])
		}
	}
	fromSums(&s, out)
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
// row in one pass over the resamples of stats.ClusterCounts (tasks with
// replacement; the draws stats.ClusterBootstrap and stats.BootstrapRatios
// make for these ids and options). Per resample, the integer columns of all
// rows are summed at once, packed several to a machine word (packing), and
// the float column (Fleiss' P̄) by dot in task order, as a per-row
// evaluation would: every sum, and so every interval, is bit for bit what
// summing each row on its own gives. Resamples where a metric is undefined
// are skipped; the bounds are the type-7 percentiles stats uses. A metric
// undefined on the full sample keeps a null interval.
func bootstrapRows(jobs []*bootJob, ids []string, opts stats.BootstrapOptions) error {
	jobs = slices.DeleteFunc(slices.Clone(jobs), func(j *bootJob) bool { return len(j.metrics) == 0 })
	if len(jobs) == 0 || len(ids) < 2 {
		return nil
	}
	if opts.Resamples == 0 {
		opts.Resamples = stats.DefaultResamples
	}
	if opts.Alpha == 0 {
		opts.Alpha = stats.DefaultAlpha
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	p := packLanes(jobs, len(ids))
	// vals[r*width+offs[k]+i]: metric jobs[k].metrics[i] in resample r.
	offs := make([]int, len(jobs))
	width := 0
	for k, j := range jobs {
		offs[k] = width
		width += len(j.metrics)
	}
	R := opts.Resamples
	vals := make([]float64, R*width)
	scratch := make([]*bootScratch, opts.Workers)
	err := stats.ClusterCounts(ids, opts, func(worker, r int, counts []int) {
		s := scratch[worker]
		if s == nil {
			s = &bootScratch{acc: make([]uint64, p.words), wf: make([]float64, len(ids)), wk: make([]float64, len(ids)), nz: make([]int, len(ids))}
			scratch[worker] = s
		}
		p.sum(counts, s.acc, s.wf, s.nz)
		row := vals[r*width : (r+1)*width]
		var out [bootMetrics]float64
		for k, j := range jobs {
			j.eval(s.acc, s.wf, s.wk, &out)
			for i, m := range j.metrics {
				row[offs[k]+i] = out[m]
			}
		}
	})
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	var targets []*Metric
	for _, j := range jobs {
		all := rowMetrics(j.row)
		for _, m := range j.metrics {
			targets = append(targets, all[m])
		}
	}
	setPercentiles(targets, vals, R, opts.Alpha, opts.Workers)
	return nil
}

// bootScratch is a worker's scratch space for one resample.
type bootScratch struct {
	acc    []uint64  // packed column sums
	wf, wk []float64 // multiplicities as floats; gathered per job
	nz     []int     // drawn tasks
}

// setPercentiles sets targets[i].Boot to the percentile interval of column
// i of vals (R rows of len(targets) values), on workers goroutines. Each
// goroutine copies a block of columns out at a time, reading the rows
// front to back.
func setPercentiles(targets []*Metric, vals []float64, R int, alpha float64, workers int) {
	const block = 32
	width := len(targets)
	blocks := (width + block - 1) / block
	var wg sync.WaitGroup
	for w := range min(workers, blocks) {
		wg.Go(func() {
			buf := make([]float64, block*R)
			for b := w; b < blocks; b += workers {
				lo, hi := b*block, min(width, (b+1)*block)
				for r := range R {
					for i, v := range vals[r*width+lo : r*width+hi] {
						buf[i*R+r] = v
					}
				}
				for i := lo; i < hi; i++ {
					targets[i].Boot = percentiles(buf[(i-lo)*R:(i-lo+1)*R], alpha)
				}
			}
		})
	}
	wg.Wait()
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
	var out [2]float64
	for k, p := range [2]float64{alpha / 2, 1 - alpha/2} {
		h := p * float64(len(kept)-1)
		i := int(math.Floor(h))
		lo, hi := orderPair(kept, i)
		out[k] = lo
		if i < len(kept)-1 && h != float64(i) {
			out[k] = lo + (h-float64(i))*(hi-lo)
		}
	}
	return out
}

// nearEnd is the most order statistics orderPair keeps in its buffer.
const nearEnd = 128

// orderPair returns the i-th and (i+1)-th smallest of xs (0-based; the
// second is the first again when i is the last), which it may reorder. The
// quantiles of a bootstrap interval sit near either end, so when either
// end is within nearEnd values a single pass keeps that end sorted in a
// small buffer; otherwise it selects (selectNth).
func orderPair(xs []float64, i int) (float64, float64) {
	n := len(xs)
	if i >= n-1 {
		v := selectNth(xs, n-1)
		return v, v
	}
	var buf [nearEnd]float64
	switch {
	case i+2 <= nearEnd && i+2 <= n-i:
		low := smallest(xs, i+2, buf[:0])
		return low[i], low[i+1]
	case n-i <= nearEnd:
		high := largest(xs, n-i, buf[:0])
		return high[n-i-1], high[n-i-2]
	}
	lo := selectNth(xs, i)
	return lo, slices.Min(xs[i+1:]) // after selectNth, the (i+1)-th smallest
}

// smallest returns the k smallest values of xs in ascending order, in buf.
func smallest(xs []float64, k int, buf []float64) []float64 {
	for _, v := range xs {
		if len(buf) == k {
			if v >= buf[k-1] {
				continue
			}
			buf = buf[:k-1]
		}
		j := len(buf)
		buf = append(buf, v)
		for ; j > 0 && buf[j-1] > v; j-- {
			buf[j] = buf[j-1]
		}
		buf[j] = v
	}
	return buf
}

// largest returns the k largest values of xs in descending order, in buf.
func largest(xs []float64, k int, buf []float64) []float64 {
	for _, v := range xs {
		if len(buf) == k {
			if v <= buf[k-1] {
				continue
			}
			buf = buf[:k-1]
		}
		j := len(buf)
		buf = append(buf, v)
		for ; j > 0 && buf[j-1] < v; j-- {
			buf[j] = buf[j-1]
		}
		buf[j] = v
	}
	return buf
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
