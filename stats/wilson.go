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
