package stats

import (
	"math"
	"slices"
)

// tailQuantiles returns the alpha/2 and 1−alpha/2 quantiles that
// quantileSelect gives for xs (no NaN), when they lie in its tails: a pass
// moves the values at or below a low pivot to the front of xs and another
// those at or above a high pivot to the back, and the order statistics
// are selected among those few instead of among all. The pivots are order
// statistics of a sample of xs, wide of the quantiles; ok is false (xs
// reordered) when a tail misses an order statistic it needs.
func tailQuantiles(xs []float64, alpha float64) (lo, hi float64, ok bool) {
	const samples = 128
	n := len(xs)
	if n < 4*samples {
		return 0, 0, false
	}
	qLo, qHi := alpha/2, 1-alpha/2
	hLo, hHi := qLo*float64(n-1), qHi*float64(n-1)
	iLo, iHi := min(int(math.Floor(hLo)), n-1), min(int(math.Floor(hHi)), n-1)
	needLo, needHi := iLo+2, n-iHi // values each tail must hold
	if needLo > n/8 || needHi > n/8 {
		return 0, 0, false
	}
	var sample [samples]float64
	step := n / samples
	for k := range sample {
		sample[k] = xs[k*step]
	}
	rLo := min(samples-1, 2*needLo*samples/n+4)
	rHi := max(0, samples-1-(2*needHi*samples/n+4))
	selectNth(sample[:], rLo)
	a := sample[rLo]
	selectNth(sample[:], rHi)
	b := sample[rHi]
	if !(a < b) {
		return 0, 0, false
	}
	j := 0 // xs[:j]: the values <= a
	for i, v := range xs {
		if v <= a {
			xs[i], xs[j] = xs[j], v
			j++
		}
	}
	k := n // xs[k:]: the values >= b
	for i := n - 1; i >= j; i-- {
		if xs[i] >= b {
			k--
			xs[i], xs[k] = xs[k], xs[i]
		}
	}
	if j < needLo || n-k < needHi {
		return 0, 0, false
	}
	lo = interpolate(xs[:j], iLo, hLo-float64(iLo), iLo >= n-1)
	hi = interpolate(xs[k:], iHi-k, hHi-float64(iHi), iHi >= n-1)
	return lo, hi, true
}

// interpolate is quantileSelect's type-7 value from the order statistics
// i and i+1 of ys (the last when last), at fraction f between them.
func interpolate(ys []float64, i int, f float64, last bool) float64 {
	selectNth(ys, i)
	x := ys[i]
	if last || f == 0 {
		return x
	}
	next := slices.Min(ys[i+1:])
	if next == x {
		return x
	}
	return x + f*(next-x)
}
