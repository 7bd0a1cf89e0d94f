package keyindex

import (
	"math/rand/v2"
	"testing"
)

// TestIndexFilter: every stored key is found through the filter, and the
// filter turns away nearly all keys that are not stored.
func TestIndexFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 100_000
	stored := make([]Entry, n)
	raw := make([]byte, n*EntryBytes)
	for i := range stored {
		stored[i] = Entry{Key: [2]uint64{r.Uint64(), r.Uint64()}, Content: uint64(i)}
		Put(raw[i*EntryBytes:], stored[i])
	}
	px := New([][]byte{raw[:n/2*EntryBytes], raw[n/2*EntryBytes:]}, nil)
	for i, e := range stored {
		if !px.MayHold(e.Key) {
			t.Fatalf("stored key %d: the filter turns it away", i)
		}
		got, ok := px.Find(e.Key)
		wantFile, wantRow := 0, i
		if i >= n/2 {
			wantFile, wantRow = 1, i-n/2
		}
		if !ok || got.Content != e.Content || got.File != uint32(wantFile) || got.Row != uint32(wantRow) {
			t.Fatalf("stored key %d: found %v %+v", i, ok, got)
		}
	}
	passed := 0
	for range n {
		k := r.Uint64()
		if px.MayHold([2]uint64{r.Uint64(), k}) {
			passed++
		}
	}
	// 2–4 keys per 64-bit word, three bits each: under 1% false positives.
	if rate := float64(passed) / n; rate > 0.01 {
		t.Errorf("filter passes %.2f%% of keys not stored, want < 1%%", 100*rate)
	}
}
