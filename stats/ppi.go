package stats

import (
	"fmt"
	"math"
)

// Prediction-powered inference of a mean (Angelopoulos, Bates, Fannjiang,
// Jordan & Zrnic, "Prediction-powered inference", Science 2023) and its
// power-tuned form PPI++ (Angelopoulos, Duchi & Zrnic, "PPI++: Efficient
// prediction-powered inference", arXiv:2311.01453, 2023), as ppi-python's
// ppi_mean_ci computes them (unweighted, two-sided, one dimension). The
// data enter as sums, so that a query can reduce episodes to per-task rows
// and a bootstrap can reweight tasks.

// PPISums are the sufficient statistics of a prediction-powered mean: over
// the n labelled items, the gold value Y and the prediction f; over the N
// unlabelled items, the prediction only. For trustlake, Y is the ground
// truth (1 pass, 0 fail) and f the judge's verdict (1 accepted, 0 not) or
// its score.
type PPISums struct {
	N                float64 // labelled items
	Y, YY, F, FF, YF float64 // Σ Y, Σ Y², Σ f, Σ f², Σ Y·f over the labelled
	NU               float64 // unlabelled items
	FU, FFU          float64 // Σ f, Σ f² over the unlabelled
}

// AddScaled adds w times o to s (w = a cluster's multiplicity in a
// bootstrap resample).
func (s *PPISums) AddScaled(o PPISums, w float64) {
	s.N += w * o.N
	s.Y += w * o.Y
	s.YY += w * o.YY
	s.F += w * o.F
	s.FF += w * o.FF
	s.YF += w * o.YF
	s.NU += w * o.NU
	s.FU += w * o.FU
	s.FFU += w * o.FFU
}

// PPIEstimate is a mean with its normal (Wald) interval.
type PPIEstimate struct {
	Lambda float64 // the power-tuning parameter used (0: classical, 1: PPI)
	Value  float64
	SE     float64 // standard error; the interval is Value ± z·SE
	Lo, Hi float64
}

// popVar is the population variance (divisor n, numpy's std²) from a sum
// and a sum of squares, never negative.
func popVar(n, sum, sumsq float64) float64 {
	m := sum / n
	return max(sumsq/n-m*m, 0)
}

// normalInterval fills Lo and Hi as statsmodels' _zconfint_generic does:
// Value ∓ Φ⁻¹(1−alpha/2)·SE.
func normalInterval(e PPIEstimate, alpha float64) PPIEstimate {
	z := zTwoSided(alpha)
	e.Lo, e.Hi = e.Value-z*e.SE, e.Value+z*e.SE
	return e
}

func undefinedEstimate(lambda float64) PPIEstimate {
	nan := math.NaN()
	return PPIEstimate{Lambda: lambda, Value: nan, SE: nan, Lo: nan, Hi: nan}
}

// PPIMean returns the prediction-powered estimate of the mean of Y at
// power-tuning parameter lambda,
//
//	θ_λ = λ·mean(f_U) + mean(Y − λ·f_L),
//
// with ppi_mean_ci's interval θ_λ ± z·√(σ²(λ·f_U)/N + σ²(Y − λ·f_L)/n),
// σ² the population variance (divisor n, numpy's default). lambda 1 is
// PPI; lambda 0 is the classical mean of the labelled Y (then N may be 0).
// It is undefined (NaN) without labelled items, or without unlabelled
// ones when lambda is not 0.
func PPIMean(s PPISums, lambda, alpha float64) PPIEstimate {
	if s.N <= 0 || (s.NU <= 0 && lambda != 0) || math.IsNaN(lambda) {
		return undefinedEstimate(lambda)
	}
	rect := (s.Y - lambda*s.F) / s.N
	rectVar := max((s.YY-2*lambda*s.YF+lambda*lambda*s.FF)/s.N-rect*rect, 0)
	e := PPIEstimate{Lambda: lambda, Value: rect}
	v := rectVar / s.N
	if lambda != 0 {
		e.Value += lambda * s.FU / s.NU
		v += lambda * lambda * popVar(s.NU, s.FU, s.FFU) / s.NU
	}
	e.SE = math.Sqrt(v)
	return normalInterval(e, alpha)
}

// PPITunedLambda returns the PPI++ power-tuning parameter that minimises
// the variance of θ_λ, as ppi-python's _calc_lam_glm computes it for a mean
// (clip=True):
//
//	λ̂ = Cov_n(Y, f_L) / ((1 + n/N) · Var_{n+N−1}(f_L ∪ f_U)),
//
// Cov_n the labelled covariance with divisor n, Var the sample variance
// (divisor n+N−1, numpy.cov) of all predictions, clipped to [0, 1]. When
// the predictions are constant every λ gives the same estimate and 0 is
// returned. NaN without labelled or unlabelled items.
func PPITunedLambda(s PPISums) float64 {
	if s.N <= 0 || s.NU <= 0 {
		return math.NaN()
	}
	cov := s.YF/s.N - (s.Y/s.N)*(s.F/s.N)
	m := s.N + s.NU
	sf, sff := s.F+s.FU, s.FF+s.FFU
	v := max((sff-sf*sf/m)/(m-1), 0)
	if v == 0 {
		return 0
	}
	lam := cov / ((1 + s.N/s.NU) * v)
	return min(max(lam, 0), 1)
}

// PPIMeanTuned is PPIMean at PPITunedLambda: ppi_mean_ci with lam=None.
func PPIMeanTuned(s PPISums, alpha float64) PPIEstimate {
	return PPIMean(s, PPITunedLambda(s), alpha)
}

// ClassicalMean returns the mean of n values from their sum and sum of
// squares with ppi-python's classical_mean_ci interval: mean ± z·σ/√n, σ²
// the population variance. NaN when n is 0.
func ClassicalMean(n, sum, sumsq, alpha float64) PPIEstimate {
	if n <= 0 {
		return undefinedEstimate(0)
	}
	e := PPIEstimate{Value: sum / n, SE: math.Sqrt(popVar(n, sum, sumsq) / n)}
	return normalInterval(e, alpha)
}

// PPIEffectiveLabels returns how many labelled items the classical mean
// would need for the standard error e has: n_eff = σ²(Y)/SE², σ² the
// labelled population variance. NaN when undefined; +Inf when SE is 0 and
// Y varies.
func PPIEffectiveLabels(s PPISums, e PPIEstimate) float64 {
	if s.N <= 0 || math.IsNaN(e.SE) {
		return math.NaN()
	}
	v := popVar(s.N, s.Y, s.YY)
	if e.SE == 0 {
		if v == 0 {
			return s.N
		}
		return math.Inf(1)
	}
	return v / (e.SE * e.SE)
}

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
	clusters := len(ids)
	if err != nil {
		clusters = 0 // the estimates, with no interval
	}
	ivs := intervals(est[:], vals, clusters, o)
	return PPIBoot{JudgeOnly: ivs[0], GTOnly: ivs[1], PPI: ivs[2], Tuned: ivs[3]}, err
}
