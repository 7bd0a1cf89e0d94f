package stats

import "math"

// Wilson returns the two-sided Wilson score interval for k successes out of
// n trials at level 1−alpha. It returns NaN, NaN when n == 0 (callers map
// that to null), when k is outside [0, n], or when alpha is not in (0, 1).
// The bounds are clamped to [0, 1]; 19 of 84 at alpha 0.05 gives
// [0.150, 0.326].
func Wilson(k, n int, alpha float64) (lo, hi float64) {
	if n <= 0 || k < 0 || k > n || !(alpha > 0 && alpha < 1) {
		return math.NaN(), math.NaN()
	}
	center, half := wilson(float64(k)/float64(n), float64(n), zTwoSided(alpha))
	lo, hi = math.Max(0, center-half), math.Min(1, center+half)
	// Exact endpoints at the boundaries, free of rounding.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// WilsonHalfWidth returns the half-width of the Wilson interval at observed
// rate p in [0, 1] with n trials at level 1−alpha. p need not be a multiple
// of 1/n; the formula is evaluated at the real-valued rate. It returns NaN for
// n <= 0, p outside [0, 1] or alpha outside (0, 1).
func WilsonHalfWidth(p float64, n int, alpha float64) float64 {
	if n <= 0 || !(p >= 0 && p <= 1) || !(alpha > 0 && alpha < 1) {
		return math.NaN()
	}
	_, half := wilson(p, float64(n), zTwoSided(alpha))
	return half
}

// wilson returns the centre and half-width of the Wilson interval.
func wilson(p, n, z float64) (center, half float64) {
	z2 := z * z
	den := 1 + z2/n
	center = (p + z2/(2*n)) / den
	half = z / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return center, half
}

// maxSampleSize bounds the search of NegativesForHalfWidth.
const maxSampleSize = 1 << 40

// NegativesForHalfWidth returns the smallest number of trials n (for FPR:
// ground-truth negatives) whose Wilson half-width at rate p and level
// 1−alpha is at most w. The half-width is strictly decreasing in n for every
// p in [0, 1], so the answer is found by doubling and bisection. It returns
// 0 when the arguments are invalid (p outside [0, 1], w <= 0, alpha outside
// (0, 1)) or the answer would exceed 2^40.
//
// Seed §4.6: at p = 0.2 and alpha 0.05 the half-width is about 0.11 with 50
// negatives and about 0.055 with 200.
func NegativesForHalfWidth(p, w, alpha float64) int {
	if !(p >= 0 && p <= 1) || !(w > 0) || math.IsInf(w, 0) || !(alpha > 0 && alpha < 1) {
		return 0
	}
	z := zTwoSided(alpha)
	return SmallestN(maxSampleSize, func(n int) bool {
		_, half := wilson(p, float64(n), z)
		return half <= w
	})
}

// SmallestN returns the smallest n >= 1 with fits(n), for fits false
// below some n and true from it on: n is doubled from 1 until it fits,
// then bisected between the last two. It returns 0 when no power of two up
// to limit fits.
func SmallestN(limit int, fits func(n int) bool) int {
	hi := 1
	for !fits(hi) {
		if hi >= limit {
			return 0
		}
		hi *= 2
	}
	lo := hi / 2 // fits(lo) is false unless lo == 0
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
