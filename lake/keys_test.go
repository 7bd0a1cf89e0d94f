package lake

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestPartIndexFilter: every stored key is found through the filter, and
// the filter turns away nearly all keys that are not stored.
func TestPartIndexFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 100_000
	nb := bits.Len64(n / 4)
	px := &partIndex{shift: uint(64 - nb), dir: make([]uint32, (1<<nb)+1), filter: make([]uint64, 1<<nb)}
	stored := make([]keyEntry, n)
	for i := range stored {
		stored[i] = keyEntry{key: [2]uint64{r.Uint64(), r.Uint64()}, content: uint64(i)}
		px.dir[(stored[i].key[0]>>px.shift)+1]++
		px.filter[stored[i].key[1]>>px.shift] |= filterBits(stored[i].key[1])
	}
	for b := 1; b < len(px.dir); b++ {
		px.dir[b] += px.dir[b-1]
	}
	px.ents = make([]located, n)
	next := append([]uint32(nil), px.dir[:len(px.dir)-1]...)
	for i, e := range stored {
		b := e.key[0] >> px.shift
		px.ents[next[b]] = located{keyEntry: e, row: uint32(i)}
		next[b]++
	}
	for i, e := range stored {
		got, ok := px.lookup(e.key)
		if !ok || got.content != e.content || got.row != uint32(i) {
			t.Fatalf("stored key %d: found %v %+v", i, ok, got)
		}
	}
	passed := 0
	for range n {
		k := r.Uint64()
		if m := filterBits(k); px.filter[k>>px.shift]&m == m {
			passed++
		}
	}
	// 2–4 keys per 64-bit word, three bits each: under 1% false positives.
	if rate := float64(passed) / n; rate > 0.01 {
		t.Errorf("filter passes %.2f%% of keys not stored, want < 1%%", 100*rate)
	}
}
