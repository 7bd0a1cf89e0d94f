package stats

import "math/rand/v2"

// ClusterCounts runs fn on every resample of a cluster bootstrap over ids,
// given as multiplicities: counts[i] is how many times the cluster at
// position i of ids is drawn in resample r (the counts sum to len(ids)).
// The draws are those ClusterBootstrap and BootstrapRatios make for the
// same ids and options: a statistic computed from counts[i] × (cluster i's
// data) sees what ClusterBootstrap's stat sees for resample r. It is for a
// caller that evaluates many statistics per resample and keeps the values
// itself.
//
// fn runs on opts.Workers goroutines at once; worker (0 ≤ worker <
// opts.Workers, after defaults) names the calling goroutine, so that fn can
// keep scratch space per worker without locks. counts is reused once fn
// returns. Each worker takes a block of consecutive resamples, in order
// (so that values stored by resample fill whole cache lines). With fewer than
// two clusters fn is never called. It fails on duplicate ids, invalid
// options, or with ErrStopped when opts.Stop closes.
func ClusterCounts(ids []string, opts BootstrapOptions, fn func(worker, r int, counts []int)) error {
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return err
	}
	n := len(ids)
	if n < 2 {
		return nil
	}
	parallel(opts.Workers, func(worker, workers int) {
		counts := make([]int, n)
		src := &rand.PCG{}
		rng := rand.New(src)
		// Each worker takes a block of consecutive resamples.
		R := opts.Resamples
		for r := worker * R / workers; r < (worker+1)*R/workers; r++ {
			if stopped(opts.Stop) {
				return
			}
			clear(counts)
			reseed(src, opts.Seed, r)
			for range n {
				counts[order[rng.IntN(n)]]++
			}
			fn(worker, r, counts)
		}
	})
	if stopped(opts.Stop) {
		return ErrStopped
	}
	return nil
}
