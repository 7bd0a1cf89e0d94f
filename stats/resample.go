package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// splitmix64 is the SplitMix64 finaliser; it turns (seed, index) pairs into
// well-spread PCG seeds.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// reseed sets src to the stream of resample r under seed. Each resample has
// its own stream, so results do not depend on how resamples are split among
// goroutines.
func reseed(src *rand.PCG, seed uint64, r int) {
	a := splitmix64(seed ^ splitmix64(uint64(r)))
	src.Seed(a, splitmix64(a^0x6a09e667f3bcc909))
}

// canonicalOrder returns the positions of ids sorted by id. Resampling draws
// positions in this order, which makes every result independent of the order
// in which the caller lists clusters. It fails on duplicate ids.
func canonicalOrder(ids []string) ([]int, error) {
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return ids[order[a]] < ids[order[b]] })
	for i := 1; i < len(order); i++ {
		if ids[order[i]] == ids[order[i-1]] {
			return nil, fmt.Errorf("cluster ids: duplicate %q", ids[order[i]])
		}
	}
	return order, nil
}

// quantileSelect returns the q-quantile (type 7) of xs, whose first from
// values are the from smallest (a previous selection), reordering the rest.
func quantileSelect(xs []float64, q float64, from int) float64 {
	h := q * float64(len(xs)-1)
	i := min(int(math.Floor(h)), len(xs)-1)
	from = min(from, i)
	return interpolate(xs[from:], i-from, h-float64(i), i >= len(xs)-1)
}

// selectNth reorders xs (no NaN) so that xs[k] is its k-th smallest value
// (0-based), no value before it larger and none after it smaller.
func selectNth(xs []float64, k int) {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		// Median of three as the pivot, then Hoare's partition.
		mid := lo + (hi-lo)/2
		a, b, c := xs[lo], xs[mid], xs[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// Percentiles returns the percentile interval of a statistic's values on
// bootstrap resamples, as every bootstrap here computes it (for a caller
// that draws with ClusterCounts and keeps the values itself): NaNs are left
// out and counted in Skipped, and Lo and Hi are the alpha/2 and 1−alpha/2
// quantiles, interpolated linearly between order statistics (Hyndman–Fan
// type 7, numpy's default), found by selecting the four order statistics
// needed instead of sorting (the same values), among the tails when they
// hold them (tailQuantiles). Estimate is NaN. It reorders vals.
func Percentiles(vals []float64, alpha float64) Interval {
	kept := vals[:0]
	for _, v := range vals {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	iv := Interval{Estimate: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Used: len(kept), Skipped: len(vals) - len(kept)}
	if iv.OK = iv.Used > 0; !iv.OK {
		return iv
	}
	if lo, hi, ok := tailQuantiles(kept, alpha); ok {
		iv.Lo, iv.Hi = lo, hi
		return iv
	}
	iv.Lo = quantileSelect(kept, alpha/2, 0)
	iv.Hi = quantileSelect(kept, 1-alpha/2, int(math.Floor(alpha/2*float64(len(kept)-1)))+1)
	return iv
}

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

// interpolate is the type-7 value from the order statistics i and i+1 of
// ys (the last when last), at fraction f between them.
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
