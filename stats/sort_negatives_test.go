package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortNegatives: the scores come out in slices.SortFunc's order bit for
// bit, each with its fold (ties among a few values, negative scores, ±0 and
// NaN, which take the comparison sort), and CrossFitThreshold gives the
// same thresholds either way.
func TestSortNegatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, special := range []float64{1, -1, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1)} {
		for _, n := range []int{0, 1, 2, 9, 3000} {
			neg := make([]foldScore, n)
			for i := range neg {
				neg[i] = foldScore{float64(rng.IntN(50)-10) / 7, rng.IntN(5)}
				if rng.IntN(20) == 0 {
					neg[i].score = special
				}
			}
			want := slices.Clone(neg)
			slices.SortFunc(want, func(a, b foldScore) int { return cmp.Compare(a.score, b.score) })
			got := sortNegatives(slices.Clone(neg))
			for i := range want {
				if math.Float64bits(got[i].score) != math.Float64bits(want[i].score) {
					t.Fatalf("special %v, n %d: at %d %v, want %v", special, n, i, got[i].score, want[i].score)
				}
			}
			key := func(e foldScore) [2]uint64 { return [2]uint64{math.Float64bits(e.score), uint64(e.fold)} }
			gk, wk := make([][2]uint64, n), make([][2]uint64, n)
			for i := range n {
				gk[i], wk[i] = key(got[i]), key(want[i])
			}
			less := func(a, b [2]uint64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }
			slices.SortFunc(gk, less)
			slices.SortFunc(wk, less)
			if !slices.Equal(gk, wk) {
				t.Fatalf("special %v, n %d: scores and folds differ", special, n)
			}
		}
	}
}
