package metrics

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/trustlake/trustlake/stats"
)

// Thresholds is Threshold for several judges at once, with the same
// results (errs[i] is Threshold's error for opts[i], reports[i] its report
// otherwise). Each is prepared on its own goroutine; then those with the
// same tasks and bootstrap options (the report's reward model under every
// condition) share one pass over the resamples, up to aucLanes at a time:
// the draws are the same for the same tasks and seed, each resample's
// multiplicities are gathered once for all of them, and their AUC pairs
// are read side by side (aucBatch). Every sum is the one Threshold takes,
// of the same exact terms, so the figures are the same bit for bit.
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
			return len(g) < aucLanes && o.mo.Resamples == b.mo.Resamples && o.mo.Seed == b.mo.Seed &&
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

// runThresholdBoots adds the bootstrap intervals of 1..aucLanes boots of
// the same tasks (at least two) and options, all from one pass over the
// resamples (stats.ClusterCounts: the draws of stats.BootstrapRatios and
// stats.ClusterBootstrap, each statistic summed as those sum it) with
// scratch space per worker; one boot reads its AUC pairs alone, several
// side by side (aucBatch).
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
	pairs := make([]*aucPairs, len(bs))
	for k, b := range bs {
		vals[k] = make([]float64, 3*R)
		pairs[k] = b.pairs
	}
	aucOf := func(w []float64, drawn []int, out *[aucLanes]float64) { out[0] = first.pairs.weighted(w, drawn) }
	if len(bs) > 1 {
		aucOf = newAUCBatch(pairs).weighted
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
		var auc [aucLanes]float64
		aucOf(w, sc.drawn, &auc)
		for k, b := range bs {
			v := vals[k]
			v[r], v[R+r] = stats.WeightedRatio2(b.fp, b.neg, b.tp, b.pos, w)
			v[2*R+r] = auc[k]
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

// aucLanes is the number of aucPairs an aucBatch reads side by side.
const aucLanes = 4

// aucBatch holds the pair counts of up to aucLanes aucPairs over the same
// n tasks interleaved: wins[(i*n+j)*aucLanes+k] is pairs[k]'s wins[i*n+j]
// (zero for a lane without pairs), so a resample reads each drawn pair of
// tasks once for all of them.
type aucBatch struct {
	n     int
	pairs []*aucPairs
	wins  []float64
}

func newAUCBatch(pairs []*aucPairs) *aucBatch {
	n := pairs[0].n
	b := &aucBatch{n: n, pairs: pairs, wins: make([]float64, n*n*aucLanes)}
	for k, p := range pairs {
		for i := range n {
			for j := i; j < n; j++ { // the upper triangle: all weighted reads
				b.wins[(i*n+j)*aucLanes+k] = p.wins[i*n+j]
			}
		}
	}
	return b
}

// weighted sets out[k] to pairs[k].weighted(w, drawn), bit for bit: the
// same positives and negatives summed in the same order, and the same
// exact terms of the numerator (multiples of ½ far below 2⁵³, so the
// order of their additions does not matter).
func (b *aucBatch) weighted(w []float64, drawn []int, out *[aucLanes]float64) {
	drawn = drawn[:0]
	for t, wt := range w {
		if wt != 0 {
			drawn = append(drawn, t)
		}
	}
	var pos, neg [aucLanes]float64
	for k, p := range b.pairs {
		for _, t := range drawn { // the order of aucPairs.weighted
			pos[k] += w[t] * p.pos[t]
			neg[k] += w[t] * p.neg[t]
		}
	}
	var num [aucLanes]float64
	n := b.n
	for k, i := range drawn { // ascending: the upper triangle
		row := b.wins[i*n*aucLanes : (i+1)*n*aucLanes]
		wi := w[i]
		d := row[i*aucLanes : i*aucLanes+aucLanes]
		s0, s1, s2, s3 := d[0]*wi, d[1]*wi, d[2]*wi, d[3]*wi
		for _, j := range drawn[k+1:] {
			wj, e := w[j], row[j*aucLanes:j*aucLanes+aucLanes]
			s0 += e[0] * wj
			s1 += e[1] * wj
			s2 += e[2] * wj
			s3 += e[3] * wj
		}
		num[0] += wi * s0
		num[1] += wi * s1
		num[2] += wi * s2
		num[3] += wi * s3
	}
	for k := range b.pairs {
		if pos[k] == 0 || neg[k] == 0 {
			out[k] = math.NaN()
			continue
		}
		out[k] = num[k] / (pos[k] * neg[k])
	}
}
