package stats

import (
	"fmt"
	"math"
	"slices"
)

// SumGroup is one group of statistics of BootstrapSums: each is a function
// of the sums of a few per-cluster columns (a judge's confusion counts per
// task, say), evaluated on every resample.
type SumGroup struct {
	// Clusters are the positions (into BootstrapSums' ids) of the clusters
	// with data, ascending; nil means every cluster. The others count as
	// zeros in every column.
	Clusters []int
	// Cols[c][k] is column c's value for cluster Clusters[k] (for cluster
	// k when Clusters is nil).
	Cols [][]float64
	// Values is how many statistics Eval sets.
	Values int
	// Eval sets out[0:Values] from the columns' sums, NaN where a
	// statistic is undefined (that resample is skipped for it). It runs on
	// several goroutines at once and must not keep sums or out.
	Eval func(sums, out []float64)
}

// BootstrapSums returns percentile cluster-bootstrap intervals of every
// statistic of every group (out[g][i]: statistic i of group g): the
// resamples of ClusterCounts (those of ClusterBootstrap and
// BootstrapRatios for the same ids and options), each column summed with
// the clusters' multiplicities in the order of Clusters (SumDot), and the
// type-7 percentiles of ClusterBootstrap. Estimate is each statistic on
// the sums of the sample itself. With fewer than two clusters every
// interval has OK false. It fails on duplicate ids, invalid options, or
// with ErrStopped when opts.Stop closes.
func BootstrapSums(ids []string, groups []SumGroup, opts BootstrapOptions) ([][]Interval, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, err := canonicalOrder(ids); err != nil {
		return nil, err
	}
	offs := make([]int, len(groups)+1) // group g's values are offs[g]:offs[g+1] of a resample's
	var est []float64
	for g, gr := range groups {
		sums := make([]float64, len(gr.Cols))
		for c, col := range gr.Cols {
			sums[c] = SumDot(nil, col)
		}
		est = slices.Grow(est, gr.Values)[:offs[g]+gr.Values]
		gr.Eval(sums, est[offs[g]:])
		offs[g+1] = len(est)
	}
	R := opts.Resamples
	var vals []float64 // vals[v*R+r]: value v in resample r
	if len(ids) >= 2 && len(est) > 0 {
		vals = make([]float64, len(est)*R)
		plan := planAllSums(groups, len(ids))
		type scratch struct {
			sums, out []float64
			s         sumScratch
		}
		work := make([]*scratch, opts.Workers)
		err = ClusterCounts(ids, opts, func(worker, r int, counts []int) {
			s := work[worker]
			if s == nil {
				s = &scratch{out: make([]float64, len(est))}
				work[worker] = s
			}
			plan.sum(counts, &s.s)
			for g, gr := range groups {
				s.sums = slices.Grow(s.sums[:0], len(gr.Cols))[:len(gr.Cols)]
				plan.groupSumsOf(g, &s.s, s.sums)
				o := s.out[offs[g]:offs[g+1]]
				gr.Eval(s.sums, o)
				for i, v := range o {
					vals[(offs[g]+i)*R+r] = v
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	all := intervals(est, vals, len(ids), opts)
	out := make([][]Interval, len(groups))
	for g := range groups {
		out[g] = all[offs[g]:offs[g+1]:offs[g+1]]
	}
	return out, nil
}

// SumDot returns Σ w[i]·x[i] (Σ x[i] when w is nil) with four interleaved
// partial sums added as (s0+s1)+(s2+s3): a fixed order, so the result is
// reproducible, and exact for integer values below 2^53.
func SumDot(w, x []float64) float64 {
	var s0, s1, s2, s3 float64
	if w == nil {
		for len(x) >= 4 {
			s0 += x[0]
			s1 += x[1]
			s2 += x[2]
			s3 += x[3]
			x = x[4:]
		}
		for _, v := range x {
			s0 += v
		}
		return (s0 + s1) + (s2 + s3)
	}
	x = x[:len(w)]
	for len(w) >= 4 && len(x) >= 4 {
		s0 += w[0] * x[0]
		s1 += w[1] * x[1]
		s2 += w[2] * x[2]
		s3 += w[3] * x[3]
		w, x = w[4:], x[4:]
	}
	for i := range w {
		s0 += w[i] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

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
