package lake

import (
	"math/rand/v2"
	"testing"
)

// TestPartIndexFilter: every stored key is found through the filter, and
// the filter turns away nearly all keys that are not stored.
func TestPartIndexFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 100_000
	stored := make([]keyEntry, n)
	raw := make([]byte, n*keyEntryBytes)
	px := &partIndex{starts: []uint32{0, n / 2}, ents: [][]byte{raw[:n/2*keyEntryBytes], raw[n/2*keyEntryBytes:]}}
	for i := range stored {
		stored[i] = keyEntry{key: [2]uint64{r.Uint64(), r.Uint64()}, content: uint64(i)}
		putKeyEntry(raw[i*keyEntryBytes:], stored[i])
	}
	px.build()
	for i, e := range stored {
		if !px.mayHold(e.key) {
			t.Fatalf("stored key %d: the filter turns it away", i)
		}
		got, ok := px.find(e.key)
		wantFile, wantRow := 0, i
		if i >= n/2 {
			wantFile, wantRow = 1, i-n/2
		}
		if !ok || got.content != e.content || got.file != uint32(wantFile) || got.row != uint32(wantRow) {
			t.Fatalf("stored key %d: found %v %+v", i, ok, got)
		}
	}
	passed := 0
	for range n {
		k := r.Uint64()
		if px.mayHold([2]uint64{r.Uint64(), k}) {
			passed++
		}
	}
	// 2–4 keys per 64-bit word, three bits each: under 1% false positives.
	if rate := float64(passed) / n; rate > 0.01 {
		t.Errorf("filter passes %.2f%% of keys not stored, want < 1%%", 100*rate)
	}
}
