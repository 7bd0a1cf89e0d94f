//go:build !linux

package main

// adviseHugeHeap does nothing where transparent huge pages are not
// advised by madvise (see gc_linux.go).
func adviseHugeHeap(n int) (int, error) { return 0, nil }
