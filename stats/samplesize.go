package stats

import "math"

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
	fits := func(n int) bool {
		_, half := wilson(p, float64(n), z)
		return half <= w
	}
	hi := 1
	for !fits(hi) {
		if hi >= maxSampleSize {
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
