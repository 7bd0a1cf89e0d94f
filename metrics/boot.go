package metrics

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
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
	out[10] = math.NaN()
	if s[colElig] > 0 {
		out[10] = fleiss(1, s[colFleissP]/s[colElig], s[colFSucc], s[colFFail], s[colFUnc])
	}
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
	// set: the job's task set among the resample's gathered multiplicities
	// (taskSets), -1 for all tasks.
	set int
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
		var col []float64
		for k := range all {
			if all[k][c] != 0 {
				col = make([]float64, len(all))
				break
			}
		}
		if col == nil {
			continue // all zero
		}
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

// eval computes the job's metrics from one resample's sums: acc holds the
// packed integer columns (packing.sum), wf the clusters' multiplicities as
// floats and wsets those of each of taskSets.
func (j *bootJob) eval(acc []uint64, wf []float64, wsets [][]float64, out *[bootMetrics]float64) {
	var s [nCols]float64
	for _, l := range j.lanes {
		s[l.col] = float64(acc[l.word] >> l.shift & l.mask)
	}
	if len(j.floats) > 0 {
		w := wf
		if j.set >= 0 {
			w = wsets[j.set]
		}
		for _, c := range j.floats {
			s[j.use[c]] = dot(w, j.cols[c])
		}
	}
	if j.fprOnly { // its one metric, as fromSums computes it
		out[0] = fprOf(&s)
		return
	}
	fromSums(&s, out)
}

// taskSets gives every job with float columns and only some of the n
// tasks its set (j.set) among the distinct such sets it returns: per
// resample, the multiplicities of a set's tasks are gathered once for all
// its jobs (rows of one stratum under every judge and condition share it).
func taskSets(jobs []*bootJob, n int) [][]int {
	var sets [][]int
	at := map[string]int{}
	for _, j := range jobs {
		j.set = -1
		if len(j.floats) == 0 || len(j.tasks) == n {
			continue
		}
		k := string(intsKey(nil, j.tasks))
		i, ok := at[k]
		if !ok {
			i = len(sets)
			at[k] = i
			sets = append(sets, j.tasks)
		}
		j.set = i
	}
	return sets
}

// intsKey appends xs to b as a map key.
func intsKey(b []byte, xs []int) []byte {
	b = binary.AppendUvarint(b, uint64(len(xs)))
	for _, x := range xs {
		b = binary.AppendVarint(b, int64(x))
	}
	return b
}

// dedupe returns the distinct jobs, and for each job left out the one
// that computes the same values (same tasks, columns and metrics). Jobs
// are compared in full only when a cheap signature matches.
func dedupe(jobs []*bootJob) ([]*bootJob, map[*bootJob]*bootJob) {
	type signature struct {
		fprOnly          bool
		tasks, use, mets int
		first, last      float64 // sums of the first and last columns
	}
	var out []*bootJob
	same := map[*bootJob]*bootJob{}
	seen := map[signature][]*bootJob{}
	for _, j := range jobs {
		sig := signature{fprOnly: j.fprOnly, tasks: len(j.tasks), use: len(j.use), mets: len(j.metrics)}
		if len(j.cols) > 0 {
			for _, v := range j.cols[0] {
				sig.first += v
			}
			for _, v := range j.cols[len(j.cols)-1] {
				sig.last += v
			}
		}
		if first := slices.IndexFunc(seen[sig], j.sameAs); first >= 0 {
			same[j] = seen[sig][first]
			continue
		}
		seen[sig] = append(seen[sig], j)
		out = append(out, j)
	}
	return out, same
}

// sameAs reports whether o computes the same values as j.
func (j *bootJob) sameAs(o *bootJob) bool {
	return j.fprOnly == o.fprOnly && slices.Equal(j.tasks, o.tasks) && slices.Equal(j.use, o.use) &&
		slices.Equal(j.metrics, o.metrics) && slices.EqualFunc(j.cols, o.cols, func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	})
}

// dot returns Σ a[i]·b[i] with four interleaved partial sums (a fixed
// order, so the result is reproducible; exact for the integer counts).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	for len(a) >= 4 && len(b) >= 4 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		a, b = a[4:], b[4:]
	}
	for i := range a {
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
// summing each row on its own gives. Rows with the same columns (the
// overall row and that of the headline source) are evaluated once.
// Resamples where a metric is undefined
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
	jobs, same := dedupe(jobs)
	p := packLanes(jobs, len(ids))
	sets := taskSets(jobs, len(ids))
	offs := make([]int, len(jobs))
	width := 0
	for k, j := range jobs {
		offs[k] = width
		width += len(j.metrics)
	}
	// vals[c*R+r]: column c (metric jobs[k].metrics[i] for c = offs[k]+i)
	// in resample r. Each worker takes a block of consecutive resamples
	// (stats.ClusterCounts), so its writes fill whole cache lines.
	R := opts.Resamples
	vals := make([]float64, R*width)
	scratch := make([]*bootScratch, opts.Workers)
	err := stats.ClusterCounts(ids, opts, func(worker, r int, counts []int) {
		s := scratch[worker]
		if s == nil {
			s = &bootScratch{acc: make([]uint64, p.words), wf: make([]float64, len(ids)), nz: make([]int, len(ids))}
			for _, set := range sets {
				s.wsets = append(s.wsets, make([]float64, len(set)))
			}
			scratch[worker] = s
		}
		p.sum(counts, s.acc, s.wf, s.nz)
		for i, set := range sets {
			w := s.wsets[i]
			for k, task := range set {
				w[k] = s.wf[task]
			}
		}
		var out [bootMetrics]float64
		for k, j := range jobs {
			j.eval(s.acc, s.wf, s.wsets, &out)
			for i, m := range j.metrics {
				vals[(offs[k]+i)*R+r] = out[m]
			}
		}
	})
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	select { // the percentiles take a while too: not after a stop
	case <-opts.Stop:
		return fmt.Errorf("bootstrap: %w", stats.ErrStopped)
	default:
	}
	var targets []*Metric
	for _, j := range jobs {
		all := rowMetrics(j.row)
		for _, m := range j.metrics {
			targets = append(targets, all[m])
		}
	}
	setPercentiles(targets, vals, R, opts.Alpha, opts.Workers)
	for j, first := range same {
		all, from := rowMetrics(j.row), rowMetrics(first.row)
		for _, m := range j.metrics {
			all[m].Boot = from[m].Boot
		}
	}
	return nil
}

// bootScratch is a worker's scratch space for one resample.
type bootScratch struct {
	acc   []uint64    // packed column sums
	wf    []float64   // multiplicities as floats
	wsets [][]float64 // gathered for each of taskSets
	nz    []int       // drawn tasks
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
