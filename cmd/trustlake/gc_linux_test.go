//go:build linux

package main

import (
	"os"
	"testing"
)

// TestAdviseHugeHeap: the block's whole 2 MiB pages are advised (an
// unaligned 9 MiB block holds at least three, at most four), and the
// heap is usable afterwards.
func TestAdviseHugeHeap(t *testing.T) {
	if n, err := adviseHugeHeap(hugePage); n != 0 || err != nil {
		t.Errorf("a block of one huge page: advised %d (%v), want 0 and nothing done", n, err)
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("no transparent huge pages on this kernel")
	}
	n, err := adviseHugeHeap(9 << 20)
	if err != nil { // EINVAL also for a range not page aligned
		t.Fatalf("madvise: %v", err)
	}
	if n < 3*hugePage || n > 4*hugePage || n%hugePage != 0 {
		t.Errorf("advised %d bytes of a 9 MiB block, want 3 or 4 whole huge pages", n)
	}
	b := make([]byte, 8<<20)
	for i := range b {
		b[i] = byte(i)
	}
	if b[len(b)-1] != byte(len(b)-1) {
		t.Error("the heap after adviseHugeHeap does not hold what was written")
	}
}
