package stats

import (
	"math"
	"math/rand/v2"
)

// ClusterBootstrapN is ClusterBootstrap for k statistics computed together
// on each resample: stat fills out[0..k) for the clusters idx (NaN where a
// statistic is undefined) and the result holds one percentile interval per
// statistic, each what ClusterBootstrap gives for that statistic alone
// (the same draws for the same ids and options). For statistics that
// share their work (the sums of a calibration's bins), one pass instead of
// k. stat is called from several goroutines at once, each with its own
// out.
func ClusterBootstrapN(ids []string, k int, stat func(idx []int, out []float64), opts BootstrapOptions) ([]Interval, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return nil, err
	}
	out := make([]Interval, k)
	est := make([]float64, k)
	for j := range est {
		est[j] = math.NaN()
	}
	if len(ids) > 0 {
		stat(append([]int(nil), order...), est)
	}
	for j := range out {
		out[j] = Interval{Estimate: est[j], Lo: math.NaN(), Hi: math.NaN()}
	}
	if len(ids) < 2 {
		return out, nil
	}
	vals := make([][]float64, k) // per statistic, per resample
	for j := range vals {
		vals[j] = make([]float64, opts.Resamples)
	}
	parallel(opts.Workers, func(first, step int) {
		n := len(order)
		idx := make([]int, n)
		res := make([]float64, k)
		src := &rand.PCG{}
		rng := rand.New(src)
		for r := first; r < opts.Resamples; r += step {
			if stopped(opts.Stop) {
				return
			}
			reseed(src, opts.Seed, r)
			for j := range idx {
				idx[j] = order[rng.IntN(n)]
			}
			stat(idx, res)
			for j, v := range res {
				vals[j][r] = v
			}
		}
	})
	if stopped(opts.Stop) {
		return nil, ErrStopped
	}
	for j := range out {
		out[j].Lo, out[j].Hi, out[j].Used, out[j].Skipped = percentileInterval(vals[j], opts.Alpha)
		out[j].OK = out[j].Used > 0
	}
	return out, nil
}
