package keyindex

import (
	"cmp"
	"math/bits"
	"slices"
)

// Seen is one added row's key and source (File indexes the batch's source
// names); a slice of them finds in-batch duplicates far cheaper than a map
// of a million keys.
type Seen struct {
	Key  [2]uint64
	Line int64
	File int32
}

// Pair is a row (Again) whose key an earlier row (First) had.
type Pair struct{ First, Again Seen }

// Duplicate is a row whose key an earlier row of the same batch had.
type Duplicate struct {
	File, FirstFile string
	Line, FirstLine int64
}

// Batch records the key and source of every row of a batch and finds the
// rows whose key an earlier row had. The keys stay in memory or, with a
// bound, go to disk in sorted runs (Spill).
type Batch struct {
	dir      string // where a spill goes
	inMemory int    // keys held before a run goes to disk; 0: no bound
	seen     []Seen
	files    []string // source names by index, when nothing spills
	spill    *Spill
	found    chan []Pair // the in-memory search started by Search
}

// NewBatch starts a batch of about sizeHint rows. With inMemory > 0 at
// most that many keys stay in memory; the rest spill to unlinked files in
// dir.
func NewBatch(dir string, inMemory, sizeHint int) *Batch {
	b := &Batch{dir: dir, inMemory: inMemory}
	if inMemory <= 0 {
		b.seen = make([]Seen, 0, sizeHint)
	}
	return b
}

// Add records one row's key and source.
func (b *Batch) Add(key [2]uint64, file string, line int64) error {
	if b.inMemory <= 0 {
		if n := len(b.files); n == 0 || b.files[n-1] != file {
			b.files = append(b.files, file)
		}
		b.seen = append(b.seen, Seen{Key: key, Line: line, File: int32(len(b.files) - 1)})
		return nil
	}
	if b.spill == nil {
		sp, err := NewSpill(b.dir)
		if err != nil {
			return err
		}
		b.spill = sp
	}
	fi, err := b.spill.Name(file)
	if err != nil {
		return err
	}
	b.seen = append(b.seen, Seen{Key: key, Line: line, File: fi})
	if len(b.seen) >= b.inMemory {
		err = b.spill.Run(b.seen)
		b.seen = b.seen[:0]
	}
	return err
}

// Search starts looking for the repeats of keys held in memory, in the
// background, once the last row is added (Duplicates waits for it).
func (b *Batch) Search() {
	if b.spill == nil && b.found == nil {
		b.found = make(chan []Pair, 1)
		go func(seen []Seen) { b.found <- repeats(seen) }(b.seen)
	}
}

// Finish merges the spilled keys, once the last row is added, and removes
// the spill's files.
func (b *Batch) Finish() error {
	if b.spill == nil {
		return nil
	}
	err := b.spill.Finish(b.seen)
	b.spill.Close()
	b.seen = nil
	return err
}

// Close removes the spill's files, if any (a batch given up).
func (b *Batch) Close() {
	if b.spill != nil {
		b.spill.Close()
	}
}

// Duplicates returns the rows whose key an earlier row of the batch had,
// in the order they were added. Call it after Search or Finish.
func (b *Batch) Duplicates() []Duplicate {
	var dups []Pair
	name := func(i int32) string { return b.files[i] }
	switch {
	case b.spill != nil:
		dups = b.spill.Pairs()
		name = b.spill.SourceName
	case b.found != nil:
		dups = <-b.found
		b.found = nil
	default:
		dups = repeats(b.seen)
	}
	slices.SortFunc(dups, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(x.Again.File, y.Again.File), cmp.Compare(x.Again.Line, y.Again.Line))
	})
	out := make([]Duplicate, len(dups))
	for i, d := range dups {
		out[i] = Duplicate{File: name(d.Again.File), Line: d.Again.Line, FirstFile: name(d.First.File), FirstLine: d.First.Line}
	}
	return out
}

// repeats finds the repeated keys of s in memory. The keys are bucketed
// by the top bits of key[0] into one word each, the low 32 bits of key[0]
// beside the row's index in s (8 bytes a row where a copy of s took 32):
// keys of a bucket whose words differ differ; equal words are confirmed
// on the whole key.
func repeats(s []Seen) []Pair {
	var dups []Pair
	nb := max(1, bits.Len64(uint64(len(s))/2))
	shift := uint(64 - nb)
	start := make([]int32, (1<<nb)+1)
	for i := range s {
		start[(s[i].Key[0]>>shift)+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	sorted := make([]uint64, len(s)) // key[0]'s low half << 32 | index in s
	next := slices.Clone(start[:len(start)-1])
	for i := range s {
		k := s[i].Key[0]
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
						if first.Key == again.Key {
							dups = append(dups, Pair{First: *first, Again: *again})
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
			kx, ky := &s[uint32(x)].Key, &s[uint32(y)].Key
			return cmp.Or(cmp.Compare(kx[0], ky[0]), cmp.Compare(kx[1], ky[1]))
		})
		run := 0
		for i := 1; i < len(bucket); i++ {
			first, again := &s[uint32(bucket[run])], &s[uint32(bucket[i])]
			if again.Key != first.Key {
				run = i
				continue
			}
			dups = append(dups, Pair{First: *first, Again: *again})
		}
	}
	return dups
}
