package lake

import (
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// shredder writes rows into parquet-go's column writers a column at a
// time, from the row type's field offsets, instead of parquet-go's
// reflection, which calls into the column buffers once per row for each
// optional field. It cuts the rows into the same 64-row writes as
// GenericWriter.Write, and ColumnWriter.WriteRowValues flushes a page on
// the same condition, so the files are the same bytes.
type shredder struct {
	cols []shredColumn
	vals []parquet.Value
}

// shredColumn is one stored field and its leaf column.
type shredColumn struct {
	f     *rowField
	index int // leaf column index in the schema
}

// shredRows is how many rows GenericWriter.Write hands its column
// buffers at a time; a page is cut only between two such writes.
const shredRows = 64

// newShredder maps every leaf column of s to its field of rt. It returns
// nil when a column has no field, or its optionality differs from the
// field's (pointer for optional): GenericWriter.Write is used then.
func newShredder(rt *rowType, s *parquet.Schema) *shredder {
	byName := make(map[string]*rowField, len(rt.fields))
	for i := range rt.fields {
		f := &rt.fields[i]
		byName[f.name] = f
	}
	for _, j := range rt.parts {
		delete(byName, rt.fields[j].name) // stored in the path, not a column
	}
	leaves := s.Columns()
	if len(leaves) != len(byName) {
		return nil
	}
	sh := &shredder{vals: make([]parquet.Value, shredRows)}
	for _, path := range leaves {
		leaf, ok := s.Lookup(path...)
		if !ok || len(path) != 1 || leaf.MaxRepetitionLevel > 0 {
			return nil
		}
		f := byName[path[0]]
		if f == nil {
			return nil
		}
		if (leaf.MaxDefinitionLevel > 0) != f.opt || leaf.MaxDefinitionLevel > 1 {
			return nil
		}
		if f.kind == kTime {
			if lt := leaf.Node.Type().LogicalType(); lt == nil || lt.String() != microsType {
				return nil
			}
		}
		sh.cols = append(sh.cols, shredColumn{f: f, index: leaf.ColumnIndex})
	}
	return sh
}

// microsType is the logical type of a timestamp(microsecond) column,
// the one time unit the shredder converts to.
var microsType = parquet.Timestamp(parquet.Microsecond).Type().LogicalType().String()

// shredWrite writes rows, as GenericWriter.Write would, into the column
// writers cw of the row group being written.
func shredWrite[T any](sh *shredder, cw []*parquet.ColumnWriter, rows []T) error {
	size := unsafe.Sizeof(*new(T))
	for i := 0; i < len(rows); i += shredRows {
		n := min(shredRows, len(rows)-i)
		base := unsafe.Pointer(&rows[i])
		for c := range sh.cols {
			col := &sh.cols[c]
			vals := sh.vals[:n]
			col.values(vals, base, size)
			if _, err := cw[col.index].WriteRowValues(vals); err != nil {
				return err
			}
		}
	}
	clear(sh.vals) // keep no pointers into the rows
	return nil
}

// values fills vals with the column's value of each row from base, rows
// size bytes apart: a null (definition level 0) for a nil pointer. The
// switch is the same for every row, so the branch is predicted; values
// are stored in place (a closure returning each one stalled on them).
func (col *shredColumn) values(vals []parquet.Value, base unsafe.Pointer, size uintptr) {
	a, opt := unsafe.Add(base, col.f.offset), col.f.opt
	for r := range vals {
		// Offset from a each time: advancing a past the last row would
		// leave a pointer one past the rows, which the collector refuses.
		p := unsafe.Add(a, uintptr(r)*size)
		if opt {
			if p = *(*unsafe.Pointer)(p); p == nil {
				vals[r] = parquet.Value{}
				continue
			}
		}
		v := &vals[r]
		switch col.f.kind {
		case kString:
			s := *(*string)(p)
			*v = parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
		case kInt64:
			*v = parquet.Int64Value(*(*int64)(p))
		case kFloat64:
			*v = parquet.DoubleValue(*(*float64)(p))
		case kBool:
			*v = parquet.BooleanValue(*(*bool)(p))
		case kTime:
			*v = parquet.Int64Value((*time.Time)(p).UnixMicro())
		}
		if opt {
			v.SetDefinitionLevel(1)
		}
	}
}

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
		case kString:
			s.strs = slabAppend(s.strs, **(**string)(a), rows*rt.optN[kString])
			*(**string)(a) = &s.strs[len(s.strs)-1]
		case kTime:
			s.times = slabAppend(s.times, **(**time.Time)(a), rows*rt.optN[kTime])
			*(**time.Time)(a) = &s.times[len(s.times)-1]
		case kBool:
			s.bools = slabAppend(s.bools, **(**bool)(a), rows*rt.optN[kBool])
			*(**bool)(a) = &s.bools[len(s.bools)-1]
		default: // kInt64, kFloat64: eight bytes
			s.nums = slabAppend(s.nums, **(**uint64)(a), rows*(rt.optN[kInt64]+rt.optN[kFloat64]))
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
