package lake

import (
	"fmt"
	"unsafe"
)

// DuplicateError is a row whose natural key an earlier row of the same
// batch already had.
type DuplicateError struct {
	File, FirstFile string
	Line, FirstLine int64
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("same natural key as %s", origin(e.FirstFile, e.FirstLine))
}

// see records an added row's key and source for Duplicates.
func (w *Writer[T]) see(p unsafe.Pointer, key [2]uint64) error {
	file, line := w.rt.where(p)
	return w.keys.Add(key, file, line)
}

// Duplicates returns the rows whose natural key an earlier row of the batch
// already had, in the order they were added (package keyindex finds them).
// Call it after Close.
func (w *Writer[T]) Duplicates() []*DuplicateError {
	dups := w.keys.Duplicates()
	out := make([]*DuplicateError, len(dups))
	for i, d := range dups {
		out[i] = &DuplicateError{File: d.File, Line: d.Line, FirstFile: d.FirstFile, FirstLine: d.FirstLine}
	}
	w.stats.Rejected += int64(len(out))
	return out
}
