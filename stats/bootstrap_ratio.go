package stats

import (
	"fmt"
	"math"
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
// ratio statistics over the same clusters at once: BootstrapSums with one
// group per statistic, its vectors as columns in id order. The resamples
// are those ClusterBootstrap draws for the same ids and options, so the
// intervals match it (exactly for integer counts, up to summation rounding
// otherwise). A statistic's interval does not depend on which other
// statistics share the batch, on the input order of the clusters (data are
// summed in id order, by SumDot), or on Workers.
//
// A resample whose denominator sums to zero is undefined and skipped (for a
// paired statistic, when either denominator is zero). With fewer than two
// clusters every interval has OK false. Domain statistics (a stratum that
// only some tasks have) keep all tasks as clusters with zeros elsewhere, so
// the stratum's size varies between resamples as it does between samples.
// It fails on duplicate ids, invalid options, or a slice whose length is not
// len(ids).
func BootstrapRatios(ids []string, stats []RatioStat, opts BootstrapOptions) ([]Interval, error) {
	if _, err := opts.withDefaults(); err != nil {
		return nil, err
	}
	order, err := canonicalOrder(ids)
	if err != nil {
		return nil, err
	}
	n := len(ids)
	sorted := make([]string, n)
	for k, i := range order {
		sorted[k] = ids[i]
	}
	groups := make([]SumGroup, len(stats))
	for s, st := range stats {
		vecs := [][]float64{st.A.Num, st.A.Den}
		names := []string{"A.Num", "A.Den"}
		if st.paired() {
			vecs = append(vecs, st.B.Num, st.B.Den)
			names = append(names, "B.Num", "B.Den")
		}
		cols := make([][]float64, len(vecs))
		for v, vec := range vecs {
			if len(vec) != n {
				return nil, fmt.Errorf("bootstrap ratio %d: %s has %d values, want %d", s, names[v], len(vec), n)
			}
			cols[v] = make([]float64, n)
			for k, i := range order {
				cols[v][k] = vec[i]
			}
		}
		groups[s] = SumGroup{Cols: cols, Values: 1, Eval: func(sums, out []float64) {
			out[0] = ratioOf(sums[0], sums[1])
			if len(sums) == 4 {
				out[0] -= ratioOf(sums[2], sums[3])
			}
		}}
	}
	ivs, err := BootstrapSums(sorted, groups, opts)
	if err != nil {
		return nil, err
	}
	out := make([]Interval, len(stats))
	for s := range out {
		out[s] = ivs[s][0]
	}
	return out, nil
}

// WeightedRatio returns Σ w·num / Σ w·den, each summed by SumDot, or NaN
// when the denominator is 0: a ratio's value in one resample of
// BootstrapRatios (with the vectors in id order).
func WeightedRatio(num, den, w []float64) float64 {
	return ratioOf(SumDot(w, num[:len(w)]), SumDot(w, den[:len(w)]))
}

// ratioOf is sn / sd, or NaN when sd is 0 (WeightedRatio's value from its
// sums).
func ratioOf(sn, sd float64) float64 {
	if sd == 0 {
		return math.NaN()
	}
	return sn / sd
}
