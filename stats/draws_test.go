package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The shared draws are the counts each resample draws on its own stream,
// drawn once per seed, cluster count and resamples; too large a table is
// not kept.
func TestSharedDrawsAreEachResamplesOwn(t *testing.T) {
	const seed, n, R = 11, 37, 300
	got := sharedDraws(seed, n, R)
	src := &rand.PCG{}
	rng := rand.New(src)
	for r := range R {
		want := make([]int32, n)
		reseed(src, seed, r)
		for range n {
			want[rng.IntN(n)]++
		}
		if !slices.Equal(got[r*n:(r+1)*n], want) {
			t.Fatalf("resample %d: shared %v, drawn %v", r, got[r*n:(r+1)*n], want)
		}
	}
	if again := sharedDraws(seed, n, R); &again[0] != &got[0] {
		t.Error("drawn twice")
	}
	if sharedDraws(seed, maxSharedDraws, 2) != nil {
		t.Error("a table past maxSharedDraws kept")
	}
}
