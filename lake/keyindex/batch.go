package lake

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"
)

// In-batch duplicates: every added row's key and source is recorded (in
// memory, or spilled in sorted runs, seenspill.go) and searched once the
// batch is written.

// seenKey is one added row's key and source; a sorted slice of them finds
// in-batch duplicates far cheaper than a map of a million keys.
type seenKey struct {
	key  [2]uint64
	line int64
	file int32
}

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
	if w.opts.KeysInMemory <= 0 {
		if n := len(w.files); n == 0 || w.files[n-1] != file {
			w.files = append(w.files, file)
		}
		w.seen = append(w.seen, seenKey{key: key, line: line, file: int32(len(w.files) - 1)})
		return nil
	}
	if w.spill == nil {
		sp, err := newKeySpill(w.tx.spillDir())
		if err != nil {
			return err
		}
		w.spill = sp
		w.tx.abort = append(w.tx.abort, sp.close)
	}
	fi, err := w.spill.name(file)
	if err != nil {
		return err
	}
	w.seen = append(w.seen, seenKey{key: key, line: line, file: fi})
	if len(w.seen) >= w.opts.KeysInMemory {
		err = w.spill.run(w.seen)
		w.seen = w.seen[:0]
	}
	return err
}

// Duplicates returns the rows whose natural key an earlier row of the batch
// already had, in the order they were added. Call it after Close.
//
// Key hashes are uniform, so the keys are bucketed by their top bits in
// one counting pass (stable: input order within a bucket) and only the few
// keys of a bucket are compared: linear in the batch, not a sort.
func (w *Writer[T]) Duplicates() []*DuplicateError {
	var dups []dupPair
	name := func(i int32) string { return w.files[i] }
	switch {
	case w.spill != nil:
		dups = w.spill.dups
		name = func(i int32) string { return w.spill.dupNames[i] }
	case w.dups != nil:
		dups = <-w.dups
		w.dups = nil
	default:
		dups = memDups(w.seen)
	}
	slices.SortFunc(dups, func(a, b dupPair) int {
		if c := cmp.Compare(a.again.file, b.again.file); c != 0 {
			return c
		}
		return cmp.Compare(a.again.line, b.again.line)
	})
	out := make([]*DuplicateError, len(dups))
	for i, d := range dups {
		out[i] = &DuplicateError{File: name(d.again.file), Line: d.again.line, FirstFile: name(d.first.file), FirstLine: d.first.line}
	}
	w.stats.Rejected += int64(len(out))
	return out
}

// memDups finds the repeated keys of s in memory. The keys are bucketed
// by the top bits of key[0] into one word each, the low 32 bits of key[0]
// beside the row's index in s (8 bytes a row where a copy of s took 32):
// keys of a bucket whose words differ differ; equal words are confirmed
// on the whole key.
func memDups(s []seenKey) []dupPair {
	type dup = dupPair
	var dups []dup
	nb := max(1, bits.Len64(uint64(len(s))/2))
	shift := uint(64 - nb)
	start := make([]int32, (1<<nb)+1)
	for i := range s {
		start[(s[i].key[0]>>shift)+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	sorted := make([]uint64, len(s)) // key[0]'s low half << 32 | index in s
	next := slices.Clone(start[:len(start)-1])
	for i := range s {
		k := s[i].key[0]
		b := k >> shift
		sorted[next[b]] = k<<32 | uint64(i)
		next[b]++
	}
	for b := 0; b+1 < len(start); b++ {
		bucket := sorted[start[b]:start[b+1]]
		if len(bucket) <= 16 {
			for i := 1; i < len(bucket); i++ {
				for j := 0; j < i; j++ {
					if bucket[j]>>32 == bucket[i]>>32 {
						first, again := &s[uint32(bucket[j])], &s[uint32(bucket[i])]
						if first.key == again.key {
							dups = append(dups, dup{first: *first, again: *again})
							break
						}
					}
				}
			}
			continue
		}
		// Many repeats of some key: sort the bucket, keeping input order
		// within a key, and pair each repeat with the first of its run.
		slices.SortStableFunc(bucket, func(x, y uint64) int {
			kx, ky := &s[uint32(x)].key, &s[uint32(y)].key
			if c := cmp.Compare(kx[0], ky[0]); c != 0 {
				return c
			}
			return cmp.Compare(kx[1], ky[1])
		})
		run := 0
		for i := 1; i < len(bucket); i++ {
			first, again := &s[uint32(bucket[run])], &s[uint32(bucket[i])]
			if again.key != first.key {
				run = i
				continue
			}
			dups = append(dups, dup{first: *first, again: *again})
		}
	}
	return dups
}
