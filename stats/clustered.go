package stats

import "math"

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
