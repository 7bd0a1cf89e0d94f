package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPercentileIntervalSelects: the selected order statistics give, bit for
// bit, the type-7 quantiles of the sorted values (with ties, NaNs left out,
// one value, and either end).
func TestPercentileIntervalSelects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sorted := func(xs []float64, q float64) float64 {
		h := q * float64(len(xs)-1)
		i := int(math.Floor(h))
		if i >= len(xs)-1 {
			return xs[len(xs)-1]
		}
		f := h - float64(i)
		if f == 0 || xs[i] == xs[i+1] {
			return xs[i]
		}
		return xs[i] + f*(xs[i+1]-xs[i])
	}
	for trial := range 3000 {
		n := 1 + rng.IntN(300)
		if trial%4 == 0 { // long enough for tailQuantiles
			n = 500 + rng.IntN(4000)
		}
		vals := make([]float64, n)
		levels := 1 + rng.IntN(40) // few distinct values: many ties
		for i := range vals {
			switch {
			case trial%3 == 0:
				vals[i] = rng.NormFloat64()
			case rng.IntN(10) == 0:
				vals[i] = math.NaN()
			default:
				vals[i] = float64(rng.IntN(levels)) / float64(levels)
			}
		}
		alpha := []float64{0.05, 0.1, 0.5, 0.8, 0.999, 1e-9}[trial%6]
		var kept []float64
		for _, v := range vals {
			if !math.IsNaN(v) {
				kept = append(kept, v)
			}
		}
		slices.Sort(kept)
		lo, hi, used, skipped := percentileInterval(slices.Clone(vals), alpha)
		if used != len(kept) || skipped != n-len(kept) {
			t.Fatalf("trial %d: used %d skipped %d, want %d %d", trial, used, skipped, len(kept), n-len(kept))
		}
		if len(kept) == 0 {
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Fatalf("trial %d: no values, got %v %v", trial, lo, hi)
			}
			continue
		}
		wlo, whi := sorted(kept, alpha/2), sorted(kept, 1-alpha/2)
		if math.Float64bits(lo) != math.Float64bits(wlo) || math.Float64bits(hi) != math.Float64bits(whi) {
			t.Fatalf("trial %d (n %d, alpha %v): got [%v, %v], sorting gives [%v, %v]", trial, n, alpha, lo, hi, wlo, whi)
		}
	}
}
