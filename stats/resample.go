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

// percentileInterval reorders vals, dropping NaNs, and returns the alpha/2
// and 1−alpha/2 quantiles by linear interpolation between order statistics
// (Hyndman–Fan type 7, numpy's default), with the number of values used
// and skipped.
func percentileInterval(vals []float64, alpha float64) (lo, hi float64, used, skipped int) {
	kept := vals[:0]
	for _, v := range vals {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	used, skipped = len(kept), len(vals)-len(kept)
	if used == 0 {
		return math.NaN(), math.NaN(), used, skipped
	}
	slices.Sort(kept)
	return quantile7(kept, alpha/2), quantile7(kept, 1-alpha/2), used, skipped
}

// quantile7 returns the q-quantile (type 7) of xs, sorted ascending.
func quantile7(xs []float64, q float64) float64 {
	h := q * float64(len(xs)-1)
	i := int(math.Floor(h))
	if i >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	x, next, f := xs[i], xs[i+1], h-float64(i)
	if f == 0 || next == x {
		return x
	}
	return x + f*(next-x)
}

// Percentiles returns the percentile interval of a statistic's values on
// bootstrap resamples, NaNs left out, as every bootstrap here computes it
// (for a caller that draws with ClusterCounts and keeps the values
// itself); Estimate is NaN. It reorders vals.
func Percentiles(vals []float64, alpha float64) Interval {
	iv := Interval{Estimate: math.NaN()}
	iv.Lo, iv.Hi, iv.Used, iv.Skipped = percentileInterval(vals, alpha)
	iv.OK = iv.Used > 0
	return iv
}
