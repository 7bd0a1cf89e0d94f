package metrics

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/stats"
)

// Thresholds is Threshold for several judges at once, with the same
// results (errs[i] is Threshold's error for opts[i], reports[i] its report
// otherwise). Each is prepared on its own goroutine; then those with the
// same tasks and bootstrap options (the report's reward model under every
// condition) share one pass over the resamples: the draws are the same for
// the same tasks and seed, so each resample's multiplicities are gathered
// once for all of them. Every sum is the one Threshold takes, so the
// figures are the same bit for bit.
func Thresholds(ctx context.Context, s ScoreEngine, opts []ThresholdOptions) (reports []ThresholdReport, errs []error) {
	boots := make([]*thresholdBoot, len(opts))
	errs = make([]error, len(opts))
	var wg sync.WaitGroup
	for i, o := range opts {
		wg.Go(func() { boots[i], errs[i] = prepareThreshold(ctx, s, o) })
	}
	wg.Wait()
	// Groups of the same tasks and options, in the order of opts.
	var groups [][]int
	for i, b := range boots {
		if b == nil {
			continue
		}
		at := slices.IndexFunc(groups, func(g []int) bool {
			o := boots[g[0]]
			return o.mo.Resamples == b.mo.Resamples && o.mo.Seed == b.mo.Seed &&
				o.mo.Alpha == b.mo.Alpha && o.mo.Workers == b.mo.Workers && slices.Equal(o.ids, b.ids)
		})
		if at < 0 {
			groups = append(groups, []int{i})
		} else {
			groups[at] = append(groups[at], i)
		}
	}
	for _, g := range groups {
		wg.Go(func() {
			if len(boots[g[0]].ids) < 2 {
				return // no interval: as thresholdBoot.run
			}
			bs := make([]*thresholdBoot, len(g))
			for k, i := range g {
				bs[k] = boots[i]
			}
			if err := runThresholdBoots(bs); err != nil {
				for _, i := range g {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	reports = make([]ThresholdReport, len(opts))
	for i, b := range boots {
		if errs[i] == nil {
			reports[i] = *b.out
		}
	}
	return reports, errs
}

// runThresholdBoots adds the bootstrap intervals of boots of the same tasks
// (at least two) and options, all from one pass over the resamples
// (stats.ClusterCounts: the draws of stats.BootstrapRatios and
// stats.ClusterBootstrap, each statistic summed as those sum it) with
// scratch space per worker.
func runThresholdBoots(bs []*thresholdBoot) error {
	first := bs[0]
	n := len(first.ids)
	bopts := first.mo.boot(first.mo.Workers)
	workers := bopts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	R := first.mo.Resamples
	vals := make([][]float64, len(bs)) // per boot: held-out FPR, TPR, AUC per resample
	for k := range bs {
		vals[k] = make([]float64, 3*R)
	}
	type scratch struct {
		w     []float64
		drawn []int
	}
	per := make([]scratch, workers)
	err := stats.ClusterCounts(first.ids, bopts, func(worker, r int, counts []int) {
		sc := &per[worker]
		if sc.w == nil {
			sc.w, sc.drawn = make([]float64, n), make([]int, 0, n)
		}
		w := sc.w
		for i, c := range counts {
			w[i] = float64(c)
		}
		for k, b := range bs {
			v := vals[k]
			v[r], v[R+r] = stats.WeightedRatio(b.fp, b.neg, w), stats.WeightedRatio(b.tp, b.pos, w)
			v[2*R+r] = b.pairs.weighted(w, sc.drawn)
		}
	})
	if err != nil {
		return fmt.Errorf("bootstrap threshold: %w", err)
	}
	for k, b := range bs {
		b.setIntervals(vals[k])
	}
	return nil
}
