package stats

import (
	"fmt"
	"math"
)

// PPIBoot holds the percentile cluster-bootstrap intervals of the four
// success-rate estimates of one row of trustlake rate.
type PPIBoot struct {
	JudgeOnly Interval // mean of f over labelled and unlabelled items
	GTOnly    Interval // mean of Y over the labelled items
	PPI       Interval // θ_1
	Tuned     Interval // θ_λ̂, λ̂ re-tuned on every resample
}

// ppiValues returns the judge-only, ground-truth-only, PPI and PPI++
// estimates from sums, NaN where undefined.
func ppiValues(s PPISums) [4]float64 {
	judge := math.NaN()
	if m := s.N + s.NU; m > 0 {
		judge = (s.F + s.FU) / m
	}
	gt := math.NaN()
	if s.N > 0 {
		gt = s.Y / s.N
	}
	ppi, tuned := math.NaN(), math.NaN()
	if s.N > 0 && s.NU > 0 {
		ppi = s.FU/s.NU + (s.Y-s.F)/s.N
		lam := PPITunedLambda(s)
		tuned = lam*s.FU/s.NU + (s.Y-lam*s.F)/s.N
	}
	return [4]float64{judge, gt, ppi, tuned}
}

// PPIBootstrap returns task-cluster bootstrap intervals of the judge-only,
// ground-truth-only, PPI and PPI++ estimates: clusters (tasks) named by ids
// are resampled with replacement, cells[i] holding cluster i's sums, and
// every estimate is recomputed on the resampled sums (PPI++ with its λ
// tuned again). The draws are those of ClusterCounts for the same ids and
// options. A resample where an estimate is undefined (no labelled, or no
// unlabelled, cluster drawn) is skipped for that estimate.
func PPIBootstrap(ids []string, cells []PPISums, opts BootstrapOptions) (PPIBoot, error) {
	if len(ids) != len(cells) {
		return PPIBoot{}, fmt.Errorf("ppi bootstrap: %d ids, %d cells", len(ids), len(cells))
	}
	o, err := opts.withDefaults()
	if err != nil {
		return PPIBoot{}, err
	}
	var total PPISums
	for _, c := range cells {
		total.AddScaled(c, 1)
	}
	est := ppiValues(total)
	R := o.Resamples
	vals := make([]float64, 4*R)
	err = ClusterCounts(ids, o, func(_, r int, counts []int) {
		var s PPISums
		for i, c := range counts {
			if c > 0 {
				s.AddScaled(cells[i], float64(c))
			}
		}
		v := ppiValues(s)
		for k := range v {
			vals[k*R+r] = v[k]
		}
	})
	if err != nil {
		return PPIBoot{}, err
	}
	ivs := intervals(est[:], vals, len(ids), o)
	return PPIBoot{JudgeOnly: ivs[0], GTOnly: ivs[1], PPI: ivs[2], Tuned: ivs[3]}, nil
}
