//go:build linux

package main

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs on with 4 KiB pages (amd64, arm64); a range aligned to it is page
// aligned for larger base pages too.
const hugePage = 2 << 20

// adviseHugeHeap makes the next n bytes of Go heap the command allocates
// eligible for transparent huge pages (one fault per 2 MiB instead of per
// 4 KiB), where the system leaves that to the program (THP "madvise"; the
// Go runtime does not advise the heap itself): it allocates a block of n
// bytes, advises the block's whole huge pages with MADV_HUGEPAGE, and
// collects the block, whose pages later allocations then reuse. The block
// is never written, so it costs no memory until reused. It returns the
// bytes advised and madvise's error (EINVAL without huge-page support).
// Call it before the command allocates, while the heap is small: the
// collection then takes well under a millisecond.
func adviseHugeHeap(n int) (int, error) {
	if n < 2*hugePage {
		return 0, nil
	}
	block := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	beg := (start + hugePage - 1) &^ (hugePage - 1)
	end := (start + uintptr(n)) &^ (hugePage - 1)
	err := syscall.Madvise(block[beg-start:end-start], syscall.MADV_HUGEPAGE)
	block = nil
	runtime.GC()
	return int(end - beg), err
}
