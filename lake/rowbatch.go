package lake

import (
	"time"
	"unsafe"
)

// rowBatch holds rows of one table on their way to a data file, with the
// natural-key hash of each. The Writer copies each row it adds into the
// batch, and the values its optional fields point to into the batch's
// slabs: a decoder may reuse the memory behind a row once Add returns.
// The file's encoding goroutine hands the rows to parquet-go's writer and
// hashes them for the key index.
type rowBatch[T any] struct {
	rows []T
	keys [][2]uint64 // natural key hash of each row; empty for a derived table
	own  valueSlabs
}

// valueSlabs hold the copies of a batch's optional values. A slab is
// never grown in place (the rows point into it); when full, a new one is
// started and the old stays alive through those pointers.
type valueSlabs struct {
	strs  []string
	nums  []uint64 // int64 and float64 values
	bools []bool
	times []time.Time
}

func newRowBatch[T any](capacity int) *rowBatch[T] {
	return &rowBatch[T]{rows: make([]T, 0, capacity), keys: make([][2]uint64, 0, capacity)}
}

// add copies the row at p, whose natural key hash is key, into b.
func (b *rowBatch[T]) add(rt *rowType, p *T, key [2]uint64) {
	b.rows = append(b.rows, *p)
	b.keys = append(b.keys, key)
	if len(rt.opt) > 0 {
		b.own.take(rt, unsafe.Pointer(&b.rows[len(b.rows)-1]), cap(b.rows))
	}
}

// reset empties b for reuse, dropping its references to strings.
func (b *rowBatch[T]) reset() {
	clear(b.rows)
	b.rows, b.keys = b.rows[:0], b.keys[:0]
	clear(b.own.strs)
	b.own.strs, b.own.nums, b.own.bools, b.own.times = b.own.strs[:0], b.own.nums[:0], b.own.bools[:0], b.own.times[:0]
}

// take points every non-nil optional field of the row at p to a copy of
// its value held by the slabs; rows is how many rows a batch holds: a new
// slab has room for the optional fields of its kind of that many rows.
func (s *valueSlabs) take(rt *rowType, p unsafe.Pointer, rows int) {
	for i := range rt.opt {
		f := &rt.opt[i]
		a := unsafe.Add(p, f.offset)
		if *(*unsafe.Pointer)(a) == nil {
			continue
		}
		switch f.kind {
		case kPtrString:
			s.strs = slabAppend(s.strs, **(**string)(a), rows*rt.optStrs)
			*(**string)(a) = &s.strs[len(s.strs)-1]
		case kPtrTime:
			s.times = slabAppend(s.times, **(**time.Time)(a), rows*rt.optTimes)
			*(**time.Time)(a) = &s.times[len(s.times)-1]
		case kPtrBool:
			s.bools = slabAppend(s.bools, **(**bool)(a), rows*rt.optBools)
			*(**bool)(a) = &s.bools[len(s.bools)-1]
		default: // kPtrInt64, kPtrFloat64: eight bytes
			s.nums = slabAppend(s.nums, **(**uint64)(a), rows*rt.optNums)
			*(**uint64)(a) = &s.nums[len(s.nums)-1]
		}
	}
}

// slabAppend appends v to s, starting a new slab of room for n values
// when s is full rather than moving the values others point to.
func slabAppend[V any](s []V, v V, n int) []V {
	if len(s) == cap(s) {
		s = make([]V, 0, max(n, 64))
	}
	return append(s, v)
}
