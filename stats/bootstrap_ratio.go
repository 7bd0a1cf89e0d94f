package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Ratio is a ratio-of-sums statistic Σ Num[i] / Σ Den[i] over clusters, the
// form of every proportion trustlake reports: FPR is Σ FP / Σ (FP+TN) over
// tasks. Num and Den hold one value per cluster, in the order of the ids
// given to BootstrapRatios; a cluster with no data for this statistic has
// zeros.
type Ratio struct {
	Num, Den []float64
}

// RatioStat is one statistic of BootstrapRatios: the ratio A, or, when B.Num
// is non-nil, the paired difference ratio(A) − ratio(B) on the same
// resampled clusters (an FPR difference of two judges, or claim sway).
type RatioStat struct {
	A, B Ratio
}

// paired reports whether s is a difference of two ratios.
func (s RatioStat) paired() bool { return s.B.Num != nil }

// BootstrapRatios returns percentile cluster-bootstrap intervals for many
// ratio statistics over the same clusters at once: each resample is drawn
// once and applied to every statistic, so the cost is
// Resamples × (clusters + statistics × clusters) with no allocation in the
// inner loop. The resamples are those ClusterBootstrap draws for the same
// ids and options, so the intervals match it (exactly for integer counts, up
// to summation rounding otherwise). A statistic's interval does not depend
// on which other statistics share the batch, on the input order of the
// clusters (data are summed in id order), or on Workers.
//
// A resample whose denominator sums to zero is undefined and skipped (for a
// paired statistic, when either denominator is zero). With fewer than two
// clusters every interval has OK false. Domain statistics (a stratum that
// only some tasks have) keep all tasks as clusters with zeros elsewhere, so
// the stratum's size varies between resamples as it does between samples.
// It fails on duplicate ids, invalid options, or a slice whose length is not
// len(ids).
func BootstrapRatios(ids []string, stats []RatioStat, opts BootstrapOptions) ([]Interval, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return nil, err
	}
	n := len(ids)
	// Per statistic, its vectors permuted into id order, laid out flat.
	width := make([]int, len(stats))
	var flat []float64
	for s, st := range stats {
		vecs := [][]float64{st.A.Num, st.A.Den}
		names := []string{"A.Num", "A.Den"}
		if st.paired() {
			vecs = append(vecs, st.B.Num, st.B.Den)
			names = append(names, "B.Num", "B.Den")
		}
		for v, vec := range vecs {
			if len(vec) != n {
				return nil, fmt.Errorf("bootstrap ratio %d: %s has %d values, want %d", s, names[v], len(vec), n)
			}
			for _, i := range order {
				flat = append(flat, vec[i])
			}
		}
		width[s] = len(vecs)
	}
	out := make([]Interval, len(stats))
	unit := make([]float64, n)
	for i := range unit {
		unit[i] = 1
	}
	off := 0
	for s := range stats {
		out[s] = Interval{Estimate: ratioStat(flat[off:off+width[s]*n], n, unit), Lo: math.NaN(), Hi: math.NaN()}
		off += width[s] * n
	}
	if n < 2 || len(stats) == 0 {
		return out, nil
	}
	R := opts.Resamples
	vals := make([]float64, len(stats)*R)
	// Each distinct vector is summed once per resample (statistics share
	// vectors: a paired difference and its two rates), and in one pass
	// with up to three others: every sum is still Σ w·v in id order, the
	// sum WeightedRatio takes, so the values are the same bit for bit.
	vecs, terms := distinctVectors(stats, flat, width, n)
	parallel(opts.Workers, func(first, step int) {
		w := make([]float64, n)
		sums := make([]float64, len(vecs))
		src := &rand.PCG{}
		rng := rand.New(src)
		for r := first; r < R; r += step {
			if stopped(opts.Stop) {
				return
			}
			clear(w)
			reseed(src, opts.Seed, r)
			for range n {
				w[rng.IntN(n)]++
			}
			weightedSums(w, vecs, sums)
			for s, t := range terms {
				v := ratioOf(sums[t[0]], sums[t[1]])
				if t[2] >= 0 {
					v -= ratioOf(sums[t[2]], sums[t[3]])
				}
				vals[s*R+r] = v
			}
		}
	})
	if stopped(opts.Stop) {
		return nil, ErrStopped
	}
	for s := range stats {
		out[s].Lo, out[s].Hi, out[s].Used, out[s].Skipped = percentileInterval(vals[s*R:(s+1)*R], opts.Alpha)
		out[s].OK = out[s].Used > 0
	}
	return out, nil
}

// ratioStat evaluates a statistic stored as 2 or 4 consecutive vectors of
// length n in v, with cluster multiplicities w.
func ratioStat(v []float64, n int, w []float64) float64 {
	a := WeightedRatio(v[:n], v[n:2*n], w)
	if len(v) == 2*n {
		return a
	}
	return a - WeightedRatio(v[2*n:3*n], v[3*n:4*n], w)
}

// WeightedRatio returns Σ w·num / Σ w·den summed in order, or NaN when the
// denominator is 0: a ratio's value in one resample of BootstrapRatios.
func WeightedRatio(num, den, w []float64) float64 {
	var sn, sd float64
	num, den = num[:len(w)], den[:len(w)]
	for i, wi := range w {
		sn += wi * num[i]
		sd += wi * den[i]
	}
	if sd == 0 {
		return math.NaN()
	}
	return sn / sd
}

// ratioOf is sn / sd, or NaN when sd is 0 (WeightedRatio's value from its
// sums).
func ratioOf(sn, sd float64) float64 {
	if sd == 0 {
		return math.NaN()
	}
	return sn / sd
}

// WeightedRatio2 returns WeightedRatio(an, ad, w) and WeightedRatio(bn,
// bd, w), bit for bit, from one pass over w.
func WeightedRatio2(an, ad, bn, bd, w []float64) (a, b float64) {
	var sums [4]float64
	weightedSums(w, [][]float64{an, ad, bn, bd}, sums[:])
	return ratioOf(sums[0], sums[1]), ratioOf(sums[2], sums[3])
}
