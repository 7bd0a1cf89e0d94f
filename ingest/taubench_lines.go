package ingest

import (
	"bytes"
	"io"
	"slices"
)

// lineTracker wraps a reader and maps byte offsets to 1-based line numbers.
// Offsets must be asked in non-decreasing order; newline positions before the
// last asked offset are forgotten, so memory stays bounded by the decoder's
// look-ahead plus one element.
type lineTracker struct {
	r     io.Reader
	off   int64   // bytes read so far
	nl    []int64 // offsets of newlines not yet counted
	lines int64   // newlines counted before the last asked offset
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	buf := p[:n]
	base := t.off
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		t.nl = append(t.nl, base+int64(i))
		base += int64(i) + 1
		buf = buf[i+1:]
	}
	t.off += int64(n)
	return n, err
}

// lineAt returns the line of the byte at offset off.
func (t *lineTracker) lineAt(off int64) int64 {
	k, _ := slices.BinarySearch(t.nl, off) // the newlines before off
	t.lines += int64(k)
	t.nl = append(t.nl[:0], t.nl[k:]...)
	return t.lines + 1
}
