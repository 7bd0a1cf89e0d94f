package keyindex

import (
	"fmt"
	"slices"
	"testing"
)

// TestBatchDuplicates checks that a batch reports each row whose key an
// earlier row had, with both sources, in input order, whether its keys stay
// in memory or spill to disk in runs.
func TestBatchDuplicates(t *testing.T) {
	var want []Duplicate
	type row struct {
		key  [2]uint64
		file string
		line int64
	}
	var rows []row
	first := map[[2]uint64]row{}
	for i := range 5000 {
		k := [2]uint64{uint64(i%3000) * 0x9e3779b97f4a7c15, uint64(i % 3000)}
		r := row{k, fmt.Sprintf("f%d.jsonl", i/1000), int64(i%1000 + 1)}
		if f, ok := first[k]; ok {
			want = append(want, Duplicate{File: r.file, Line: r.line, FirstFile: f.file, FirstLine: f.line})
		} else {
			first[k] = r
		}
		rows = append(rows, r)
	}
	for _, inMemory := range []int{0, 700} {
		b := NewBatch(t.TempDir(), inMemory, len(rows))
		for _, r := range rows {
			if err := b.Add(r.key, r.file, r.line); err != nil {
				t.Fatal(err)
			}
		}
		b.Search()
		if err := b.Finish(); err != nil {
			t.Fatal(err)
		}
		if got := b.Duplicates(); !slices.Equal(got, want) {
			t.Errorf("inMemory %d: %d duplicates, want %d (first %v, want %v)", inMemory, len(got), len(want), got[:min(1, len(got))], want[0])
		}
		b.Close()
	}
}
