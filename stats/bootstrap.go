package stats

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// DefaultResamples is the number of bootstrap resamples used when
// BootstrapOptions.Resamples is 0 (seed §4.6).
const DefaultResamples = 2000

// DefaultAlpha is the two-sided level used when an Alpha option is 0.
const DefaultAlpha = 0.05

// BootstrapOptions configures a cluster bootstrap. The zero value is usable:
// 2000 resamples, alpha 0.05, seed 0, one goroutine per CPU.
type BootstrapOptions struct {
	Resamples int     // number of resamples; 0 means DefaultResamples
	Alpha     float64 // two-sided level in (0, 1); 0 means DefaultAlpha
	Seed      uint64  // the same seed and clusters give the same interval
	Workers   int     // goroutines; 0 means GOMAXPROCS. Results do not depend on it.
	// Stop, when closed, makes the bootstrap skip its remaining resamples
	// and fail with ErrStopped (pass ctx.Done()); nil never stops.
	Stop <-chan struct{}
}

// ErrStopped is returned by a computation whose Stop channel was closed.
var ErrStopped = errors.New("stopped before the end")

// stopped reports whether stop is closed (never for nil).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// withDefaults fills zero fields and validates the rest.
func (o BootstrapOptions) withDefaults() (BootstrapOptions, error) {
	o.Resamples, o.Alpha = cmp.Or(o.Resamples, DefaultResamples), cmp.Or(o.Alpha, DefaultAlpha)
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Resamples < 0 {
		return o, fmt.Errorf("bootstrap options: resamples %d: must be positive", o.Resamples)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, fmt.Errorf("bootstrap options: alpha %v: must be in (0, 1)", o.Alpha)
	}
	o.Workers = min(o.Workers, o.Resamples)
	return o, nil
}

// Interval is a percentile bootstrap interval.
type Interval struct {
	Estimate float64 // the statistic on the original clusters; NaN if undefined
	Lo, Hi   float64 // percentile bounds; NaN when !OK
	OK       bool    // false with fewer than 2 clusters or no defined resample
	Used     int     // resamples whose statistic was defined
	Skipped  int     // resamples whose statistic was NaN (left out of Lo, Hi)
}

// ClusterBootstrap returns a percentile bootstrap interval of a statistic
// computed over clusters (trustlake: tasks) resampled with replacement.
//
// ids names the clusters, one per position; stat receives the positions (into
// ids, and so into the caller's own per-cluster arrays) of one resample, a
// slice of len(ids) drawn with replacement, and returns the statistic, or
// NaN when it is undefined on that resample (such resamples are skipped and
// counted in Skipped). Lo and Hi are the alpha/2 and 1−alpha/2 quantiles of
// the defined values, interpolated linearly between order statistics
// (numpy's default). stat must not keep idx, which is reused, and must be
// safe to call from several goroutines at once (a closure that only reads
// its captured slices is). The first call, on all clusters once each, gives
// Estimate.
//
// Draws are made over the clusters sorted by id and resample r uses its own
// PCG stream derived from (Seed, r). The interval is therefore the same for
// any input order of the clusters, for any Workers value and GOMAXPROCS, and
// stat even sees the same sequence of clusters, so sums come out bit for bit
// equal. With fewer than two clusters the result has OK false and no error.
// It fails on duplicate ids or invalid options.
func ClusterBootstrap(ids []string, stat func(idx []int) float64, opts BootstrapOptions) (Interval, error) {
	out, err := ClusterBootstrapN(ids, 1, func(idx []int, res []float64) { res[0] = stat(idx) }, opts)
	if err != nil {
		return Interval{}, err
	}
	return out[0], nil
}

// ClusterBootstrapN is ClusterBootstrap for k statistics computed together
// on each resample: stat fills out[0..k) for the clusters idx (NaN where a
// statistic is undefined) and the result holds one percentile interval per
// statistic, each what ClusterBootstrap gives for that statistic alone.
// stat is called from several goroutines at once, each with its own out.
func ClusterBootstrapN(ids []string, k int, stat func(idx []int, out []float64), opts BootstrapOptions) ([]Interval, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return nil, err
	}
	est := make([]float64, k)
	for j := range est {
		est[j] = math.NaN()
	}
	if len(ids) > 0 {
		stat(slices.Clone(order), est) // stat may reorder idx; order must stay the draws' order
	}
	R := opts.Resamples
	var vals []float64
	if len(ids) >= 2 {
		vals = make([]float64, k*R)
	}
	res := make([][]float64, opts.Workers)
	idxs := make([][]int, opts.Workers)
	err = resamples(len(ids), opts, func(worker, r int, rng *rand.Rand) {
		if res[worker] == nil {
			res[worker], idxs[worker] = make([]float64, k), make([]int, len(ids))
		}
		idx := idxs[worker]
		for j := range idx {
			idx[j] = order[rng.IntN(len(order))]
		}
		stat(idx, res[worker])
		for j, v := range res[worker] {
			vals[j*R+r] = v
		}
	})
	if err != nil {
		return nil, err
	}
	return intervals(est, vals, len(ids), opts), nil
}

// ClusterCounts runs fn on every resample of a cluster bootstrap over ids,
// given as multiplicities: counts[i] is how many times the cluster at
// position i of ids is drawn in resample r (the counts sum to len(ids)).
// The draws are those of ClusterBootstrap and every other bootstrap here
// for the same ids and options. It is for a caller that evaluates many
// statistics per resample and keeps the values itself.
//
// fn runs on opts.Workers goroutines at once; worker (0 ≤ worker <
// opts.Workers, after defaults) names the calling goroutine, so that fn can
// keep scratch space per worker without locks. counts is reused once fn
// returns. With fewer than two clusters fn is never called. It fails on
// duplicate ids, invalid options, or with ErrStopped when opts.Stop closes.
func ClusterCounts(ids []string, opts BootstrapOptions, fn func(worker, r int, counts []int)) error {
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return err
	}
	counts := make([][]int, opts.Workers)
	n := len(ids)
	return resamples(n, opts, func(worker, r int, rng *rand.Rand) {
		if counts[worker] == nil {
			counts[worker] = make([]int, n)
		}
		c := counts[worker]
		clear(c) // drawn straight into counts: the hot path of metrics and the report
		for range n {
			c[order[rng.IntN(n)]]++
		}
		fn(worker, r, c)
	})
}

// resamples is the one resampling engine: it runs fn on every resample r of
// opts (defaults filled) with rng on r's own stream (reseed), from which fn
// draws the n clusters of r, each as order[rng.IntN(n)] over the clusters
// sorted by id (canonicalOrder). Each worker takes a block of consecutive
// resamples. With fewer than two clusters fn is never called. It fails
// with ErrStopped when opts.Stop closes.
func resamples(n int, opts BootstrapOptions, fn func(worker, r int, rng *rand.Rand)) error {
	if n < 2 {
		return nil
	}
	parallel(opts.Workers, func(worker, workers int) {
		src := &rand.PCG{}
		rng := rand.New(src)
		R := opts.Resamples
		for r := worker * R / workers; r < (worker+1)*R/workers; r++ {
			if stopped(opts.Stop) {
				return
			}
			reseed(src, opts.Seed, r)
			fn(worker, r, rng)
		}
	})
	if stopped(opts.Stop) {
		return ErrStopped
	}
	return nil
}

// intervals returns the percentile intervals of statistics with estimates
// est and resampled values vals (statistic j's at vals[j*R:(j+1)*R]); with
// fewer than two clusters, every interval has OK false.
func intervals(est, vals []float64, clusters int, opts BootstrapOptions) []Interval {
	out := make([]Interval, len(est))
	R := opts.Resamples
	parallel(min(opts.Workers, len(est)), func(first, step int) {
		for j := first; j < len(est); j += step {
			out[j] = Interval{Lo: math.NaN(), Hi: math.NaN()}
			if clusters >= 2 {
				out[j] = Percentiles(vals[j*R:(j+1)*R], opts.Alpha)
			}
			out[j].Estimate = est[j]
		}
	})
	return out
}

// parallel runs body(w, workers) on workers goroutines, w = 0..workers−1,
// and waits; body handles items w, w+workers, w+2·workers, ...
func parallel(workers int, body func(first, step int)) {
	if workers <= 1 {
		body(0, 1)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { body(w, workers) })
	}
	wg.Wait()
}
