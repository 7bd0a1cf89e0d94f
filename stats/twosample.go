package stats

import "math"

// TwoSample is a test of the difference of two independent samples: the
// difference A − B, its two-sided p-value and a confidence interval.
type TwoSample struct {
	Diff   float64
	Z      float64
	P      float64
	Lo, Hi float64
}

// TwoProportionZ compares the proportions kA/nA and kB/nB of two
// independent samples: the z test with the pooled standard error (as
// statsmodels' proportions_ztest) for the p-value, and the Wald interval of
// the difference at level alpha (unpooled standard error). With a pooled
// proportion of 0 or 1 the samples agree: Z = 0, P = 1. NaN when a sample
// is empty.
func TwoProportionZ(kA, nA, kB, nB int, alpha float64) TwoSample {
	if nA <= 0 || nB <= 0 {
		nan := math.NaN()
		return TwoSample{nan, nan, nan, nan, nan}
	}
	pa, pb := float64(kA)/float64(nA), float64(kB)/float64(nB)
	pool := float64(kA+kB) / float64(nA+nB)
	se0 := math.Sqrt(pool * (1 - pool) * (1/float64(nA) + 1/float64(nB)))
	out := TwoSample{Diff: pa - pb}
	out.Z, out.P = ZTest(out.Diff, se0) // se0 is 0 only when pa = pb
	se := math.Sqrt(pa*(1-pa)/float64(nA) + pb*(1-pb)/float64(nB))
	z := zTwoSided(alpha)
	out.Lo, out.Hi = out.Diff-z*se, out.Diff+z*se
	return out
}

// WelchZ compares the means of two independent samples given by their
// sums, sums of squares and sizes: z = (mA − mB) / √(sA²/nA + sB²/nB) with
// the sample variances (n − 1 denominators), a normal p-value (large
// samples) and the interval of the difference at level alpha. NaN when a
// sample has fewer than two values.
func WelchZ(sumA, sumSqA float64, nA int, sumB, sumSqB float64, nB int, alpha float64) TwoSample {
	if nA < 2 || nB < 2 {
		nan := math.NaN()
		return TwoSample{nan, nan, nan, nan, nan}
	}
	ma, mb := sumA/float64(nA), sumB/float64(nB)
	va := math.Max(0, (sumSqA-float64(nA)*ma*ma)/float64(nA-1))
	vb := math.Max(0, (sumSqB-float64(nB)*mb*mb)/float64(nB-1))
	se := math.Sqrt(va/float64(nA) + vb/float64(nB))
	out := TwoSample{Diff: ma - mb}
	switch {
	case se > 0:
		out.Z = out.Diff / se
		out.P = 2 * NormalCDF(-math.Abs(out.Z))
	case out.Diff == 0:
		out.P = 1
	default:
		out.Z, out.P = math.Copysign(math.Inf(1), out.Diff), 0
	}
	z := zTwoSided(alpha)
	out.Lo, out.Hi = out.Diff-z*se, out.Diff+z*se
	return out
}

// DesignEffect returns the design effect of a proportion p of n
// observations whose (cluster-robust or cluster-bootstrap) standard error
// is se: se² / (p(1−p)/n), how much clustering inflates the binomial
// variance. NaN when p is 0 or 1, n is 0 or se is NaN.
func DesignEffect(p, se float64, n int) float64 {
	if n <= 0 || !(p > 0 && p < 1) || math.IsNaN(se) {
		return math.NaN()
	}
	return se * se * float64(n) / (p * (1 - p))
}

// ClusteredTwoProportionZ compares the proportions kA/nA and kB/nB of two
// independent clustered samples (two nights, each with episodes clustered
// by task) with design effects deffA and deffB (DesignEffect; NaN when
// unknown): the two-proportion z test with the pooled variance under the
// null hypothesis, multiplied by the design effect d, the n-weighted mean
// of the defined design effects and at least 1 (1 when neither is
// defined), as in Rao & Scott's (1992) adjustment of tests on clustered
// binary data:
//
//	z = (pA − pB) / √(d · p̄(1−p̄) · (1/nA + 1/nB)),  p̄ = (kA + kB)/(nA + nB)
//
// P is the two-sided normal p-value (1 when p̄ is 0 or 1: the samples
// agree). Lo and Hi are NaN (the caller gives the interval). NaN when a
// sample is empty.
func ClusteredTwoProportionZ(kA, nA int, deffA float64, kB, nB int, deffB float64) TwoSample {
	nan := math.NaN()
	if nA <= 0 || nB <= 0 {
		return TwoSample{nan, nan, nan, nan, nan}
	}
	d, w := 0.0, 0.0
	for _, x := range [][2]float64{{deffA, float64(nA)}, {deffB, float64(nB)}} {
		if !math.IsNaN(x[0]) {
			d += x[0] * x[1]
			w += x[1]
		}
	}
	if w > 0 {
		d /= w
	}
	d = math.Max(d, 1)
	pa, pb := float64(kA)/float64(nA), float64(kB)/float64(nB)
	pool := float64(kA+kB) / float64(nA+nB)
	out := TwoSample{Diff: pa - pb, Lo: nan, Hi: nan}
	se := math.Sqrt(d * pool * (1 - pool) * (1/float64(nA) + 1/float64(nB)))
	out.Z, out.P = ZTest(out.Diff, se)
	return out
}

// ClusteredMean is a mean over observations grouped in clusters (tasks)
// with its cluster-robust standard error.
type ClusteredMean struct {
	Mean     float64 // Σ sums / Σ n
	SE       float64 // cluster-robust (CR1) standard error of Mean
	Clusters int     // clusters with at least one observation
	N        float64 // observations
}

// MeanCR1 returns the mean of observations given per cluster by their sum
// (sum[g]) and count (n[g]), and its cluster-robust standard error: the
// variance of the intercept of an ordinary least squares fit on a
// constant, with the sandwich summed over clusters and the small-sample
// factor G/(G−1) (Liang & Zeger 1986; Cameron & Miller 2015, CR1):
//
//	Var = G/(G−1) · Σ_g (sum_g − mean·n_g)² / N²
//
// the value statsmodels' OLS gives with cov_type "cluster". For 0/1
// observations the mean is a proportion (e.g. FP of the negatives) and the
// SE allows for episodes of one task that are alike. SE is NaN with fewer
// than two clusters; Mean is NaN without observations.
func MeanCR1(sum, n []float64) ClusteredMean {
	out := ClusteredMean{Mean: math.NaN(), SE: math.NaN()}
	var s float64
	for g := range n {
		if n[g] > 0 {
			out.Clusters++
		}
		s += sum[g]
		out.N += n[g]
	}
	if out.N == 0 {
		return out
	}
	out.Mean = s / out.N
	if out.Clusters < 2 {
		return out
	}
	var ss float64
	for g := range n {
		e := sum[g] - out.Mean*n[g]
		ss += e * e
	}
	G := float64(out.Clusters)
	out.SE = math.Sqrt(G / (G - 1) * ss / (out.N * out.N))
	return out
}

// DiffCR1 is the difference of the means of two groups of observations
// that may share clusters (a stratum against the rest of its judge's
// episodes, on the same tasks), with the cluster-robust standard error of
// the difference.
type DiffCR1 struct {
	Diff   float64 // mean of A − mean of B
	SE     float64
	Z, P   float64 // Diff / SE and its two-sided normal p-value
	MeanA  float64
	MeanB  float64
	NA, NB float64
}

// DiffMeansCR1 compares group A (sumA[g] over nA[g] observations in
// cluster g) with group B over the same clusters: the coefficient of the
// A indicator in an OLS fit of the observations on a constant and that
// indicator, with its CR1 cluster-robust standard error, statsmodels'
// cov_type "cluster" (small-sample factor G/(G−1)·(N−1)/(N−2), G the
// clusters with an observation, N = NA + NB). The sandwich reduces to
//
//	Var = G/(G−1)·(N−1)/(N−2) · Σ_g ((sumA_g − meanA·nA_g)/NA − (sumB_g − meanB·nB_g)/NB)²
//
// so tasks that contribute to both groups count once. P is the normal
// two-sided p-value of Z; a zero SE gives P 1 when Diff is 0 and 0
// otherwise. Everything is NaN when a group is empty or fewer than two
// clusters have an observation.
func DiffMeansCR1(sumA, nA, sumB, nB []float64) DiffCR1 {
	nan := math.NaN()
	out := DiffCR1{Diff: nan, SE: nan, Z: nan, P: nan, MeanA: nan, MeanB: nan}
	var sa, sb float64
	G := 0
	for g := range nA {
		sa += sumA[g]
		sb += sumB[g]
		out.NA += nA[g]
		out.NB += nB[g]
		if nA[g]+nB[g] > 0 {
			G++
		}
	}
	if out.NA == 0 || out.NB == 0 || G < 2 {
		return out
	}
	out.MeanA, out.MeanB = sa/out.NA, sb/out.NB
	out.Diff = out.MeanA - out.MeanB
	var ss float64
	for g := range nA {
		u := (sumA[g]-out.MeanA*nA[g])/out.NA - (sumB[g]-out.MeanB*nB[g])/out.NB
		ss += u * u
	}
	n, gf := out.NA+out.NB, float64(G)
	if n > 2 {
		ss *= gf / (gf - 1) * (n - 1) / (n - 2)
	} else {
		ss *= gf / (gf - 1)
	}
	out.SE = math.Sqrt(ss)
	out.Z, out.P = ZTest(out.Diff, out.SE)
	return out
}

// ZTest returns z = diff/se and its two-sided normal p-value. A zero se
// gives z 0 and p 1 when diff is 0 (nothing varies, nothing changed), and
// ±Inf and p 0 otherwise; NaN inputs give NaN.
func ZTest(diff, se float64) (z, p float64) {
	switch {
	case math.IsNaN(diff) || math.IsNaN(se):
		return math.NaN(), math.NaN()
	case se > 0:
		z = diff / se
		return z, 2 * NormalCDF(-math.Abs(z))
	case diff == 0:
		return 0, 1
	}
	return math.Copysign(math.Inf(1), diff), 0
}
