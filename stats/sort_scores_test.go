package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

type scoredItem struct {
	score float64
	id    int
}

// SortScores orders scores as cmp.Compare does, ties stably:
// negatives, −0 and +0, infinities, subnormals, repeats.
func TestSortScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 1, -1, 0.5}
	for rep := range 50 {
		a := make([]scoredItem, rng.IntN(3000))
		for i := range a {
			switch rng.IntN(4) {
			case 0:
				a[i].score = special[rng.IntN(len(special))]
			case 1:
				a[i].score = float64(rng.IntN(10)) / 9
			default:
				a[i].score = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			}
			a[i].id = i
		}
		want := slices.Clone(a)
		slices.SortStableFunc(want, func(x, y scoredItem) int { return cmp.Compare(x.score, y.score) })
		got := SortScores(slices.Clone(a), func(e *scoredItem) float64 { return e.score })
		if len(got) != len(want) {
			t.Fatalf("rep %d: %d episodes, want %d", rep, len(got), len(want))
		}
		seen := make([]bool, len(a))
		for i := range got {
			if got[i].score != want[i].score {
				t.Fatalf("rep %d: position %d: %v, want %v", rep, i, got[i].score, want[i].score)
			}
			// Stable: ties keep their order (−0 and +0 are not ties here).
			if got[i].score != 0 && got[i].id != want[i].id {
				t.Fatalf("rep %d: position %d: item %d, a stable sort gives %d", rep, i, got[i].id, want[i].id)
			}
			if seen[got[i].id] || a[got[i].id] != got[i] {
				t.Fatalf("rep %d: episode %d lost or repeated", rep, got[i].id)
			}
			seen[got[i].id] = true
		}
	}
}
