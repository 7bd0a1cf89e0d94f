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
	out := TwoSample{Diff: pa - pb, P: 1}
	if se0 > 0 {
		out.Z = out.Diff / se0
		out.P = 2 * NormalCDF(-math.Abs(out.Z))
	}
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
