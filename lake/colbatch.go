package lake

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/zeebo/xxh3"
)

// colBatch holds rows of one table column by column, the way a data file
// stores them: the Writer appends each row's fields to their columns (no
// copy of the row, no string copied), and the file's encoding goroutine
// hands each column to its Parquet column writer and hashes the rows for
// the key index. Which columns exist and how each is read from a row come
// from the table's rowType, so every table takes this path alike.
type colBatch struct {
	n    int
	keys [][2]uint64 // natural key hash of each row
	cols []colData   // one per stored column, in Parquet column order
}

// colData is one column of a batch. An optional column null in every row
// so far stores nothing but the count (nulls == n, null empty: read as
// all null, as every reader does first); its first value fills in the
// rows before it.
type colData struct {
	nulls int      // how many rows are null
	null  []bool   // optional columns: the row's pointer was nil; kTime: the zero time
	str   []string // string columns
	num   []uint64 // int64 and float64 bits, bools as 0/1, times as Unix microseconds
}

// addNull records a null in an optional column.
func (col *colData) addNull() {
	col.nulls++
	if len(col.null) == 0 {
		return // null in every row so far: nothing stored
	}
	col.null = append(col.null, true)
	if col.str != nil {
		col.str = append(col.str, "")
	} else {
		col.num = append(col.num, 0)
	}
}

// present readies an optional column for a value in row n (1-based): the
// rows before it, if all null and not stored, are stored as nulls.
func (col *colData) present(n int) {
	for len(col.null) < n-1 {
		col.null = append(col.null, true)
		if col.str != nil {
			col.str = append(col.str, "")
		} else {
			col.num = append(col.num, 0)
		}
	}
	col.null = append(col.null, false)
}

// colLayout maps a row type onto its Parquet columns.
type colLayout struct {
	rt     *rowType
	schema *parquet.Schema
	fields []int          // rowType.fields index of each Parquet column
	reads  []colRead      // how add reads each Parquet column from a row
	hashed []int          // column of each hashed field, in rowType.hashed order; -1-i for partition column i
	pq     func() *pqMeta // the data files' template (pqmeta.go), made on first use
}

// newColLayout matches the stored fields of rt with the leaf columns of
// schema (parquet.SchemaOf the row type). It panics on a row type whose
// columns it cannot write: a programming error every test catches.
func newColLayout(rt *rowType, schema *parquet.Schema) *colLayout {
	cl := &colLayout{rt: rt, schema: schema}
	byName := map[string]int{}
	for i, f := range rt.fields {
		byName[f.name] = i
	}
	colOf := map[int]int{}
	for c, path := range schema.Columns() {
		if len(path) != 1 {
			panic(fmt.Sprintf("lake: %s: nested column %v", rt.typ.Name(), path))
		}
		i, ok := byName[path[0]]
		if !ok {
			panic(fmt.Sprintf("lake: %s: column %s has no field", rt.typ.Name(), path[0]))
		}
		leaf, _ := schema.Lookup(path...)
		ptr := rt.fields[i].kind >= kPtrString
		if (leaf.MaxDefinitionLevel == 1) != ptr || leaf.MaxRepetitionLevel != 0 {
			panic(fmt.Sprintf("lake: %s.%s: a pointer field must be an optional column and only then", rt.typ.Name(), rt.fields[i].goName))
		}
		colOf[i] = c
		cl.fields = append(cl.fields, i)
		cl.reads = append(cl.reads, colRead{offset: rt.fields[i].offset, kind: rt.fields[i].kind})
	}
	if len(cl.fields)+len(rt.parts) != len(rt.fields) {
		panic(fmt.Sprintf("lake: %s: %d columns for %d stored fields", rt.typ.Name(), len(cl.fields), len(rt.fields)-len(rt.parts)))
	}
	for _, i := range rt.hashed {
		c, ok := colOf[i]
		if !ok {
			c = -1 - slices.Index(rt.parts, i)
		}
		cl.hashed = append(cl.hashed, c)
	}
	cl.pq = sync.OnceValue(func() *pqMeta { return newPQMeta(cl) })
	return cl
}

func (cl *colLayout) newBatch(capacity int) *colBatch {
	rt := cl.rt
	b := &colBatch{keys: make([][2]uint64, 0, capacity), cols: make([]colData, len(cl.fields))}
	for c, i := range cl.fields {
		col := &b.cols[c]
		switch k := rt.fields[i].kind; {
		case k == kString || k == kPtrString:
			col.str = make([]string, 0, capacity)
		default:
			col.num = make([]uint64, 0, capacity)
		}
		if k := rt.fields[i].kind; k >= kPtrString || k == kTime {
			col.null = make([]bool, 0, capacity)
		}
	}
	return b
}

// reset empties b for reuse, dropping its references to strings.
func (b *colBatch) reset() {
	b.n = 0
	b.keys = b.keys[:0]
	for i := range b.cols {
		c := &b.cols[i]
		clear(c.str)
		c.nulls, c.null, c.str, c.num = 0, c.null[:0], c.str[:0], c.num[:0]
	}
}

// colRead is where and how a column's value sits in a row.
type colRead struct {
	offset uintptr
	kind   fieldKind
}

// add appends the row at p, whose natural key hash is key.
func (cl *colLayout) add(b *colBatch, p unsafe.Pointer, key [2]uint64) {
	b.n++
	b.keys = append(b.keys, key)
	cols := b.cols[:len(cl.reads)]
	for c := range cl.reads {
		f := &cl.reads[c]
		col := &cols[c]
		a := unsafe.Add(p, f.offset)
		switch f.kind {
		case kString:
			col.str = append(col.str, *(*string)(a))
		case kInt64, kFloat64:
			col.num = append(col.num, *(*uint64)(a))
		case kBool:
			col.num = append(col.num, uint64(*(*uint8)(a)))
		case kTime:
			t := (*time.Time)(a)
			col.num = append(col.num, uint64(t.UnixMicro()))
			col.null = append(col.null, t.IsZero())
		case kPtrString:
			if s := *(**string)(a); s == nil {
				col.addNull()
			} else {
				col.present(b.n)
				col.str = append(col.str, *s)
			}
		case kPtrInt64, kPtrFloat64:
			if v := *(**uint64)(a); v == nil {
				col.addNull()
			} else {
				col.present(b.n)
				col.num = append(col.num, *v)
			}
		case kPtrBool:
			if v := *(**uint8)(a); v == nil {
				col.addNull()
			} else {
				col.present(b.n)
				col.num = append(col.num, uint64(*v))
			}
		case kPtrTime:
			if t := *(**time.Time)(a); t == nil {
				col.addNull()
			} else {
				col.present(b.n)
				col.num = append(col.num, uint64(t.UnixMicro()))
			}
		}
	}
}

// hashStep is one field that can contribute to the content hash of some
// row of a batch (hashPlan), with what contentHash needs of it at hand.
type hashStep struct {
	col   *colData  // the batch's column; nil for a partition value
	fixed []byte    // the field's name as hashed, and for a partition its value too
	kind  fieldKind // the column's field kind
	// A string column's bytes as hashed (fixed, then the value) for the
	// value last met: decoders share the bytes of an episode's id between
	// its rows and intern low-cardinality values, so the next row's value
	// is often the same string, appended in one copy.
	last    *byte
	lastLen int
	hashed  []byte
}

// hashPlan returns the steps of the content hash of the rows of b, a batch
// of the partition whose values are parts, in rowType.hashed order: an
// optional column null in every row of the batch contributes nothing, nor
// an empty partition value.
func (cl *colLayout) hashPlan(b *colBatch, parts []string, plan []hashStep) []hashStep {
	rt := cl.rt
	plan = plan[:0]
	for k, c := range cl.hashed {
		f := &rt.fields[rt.hashed[k]]
		if c < 0 {
			if s := parts[-1-c]; s != "" {
				plan = append(plan, hashStep{fixed: appendString(slices.Clone(f.prefix), s)})
			}
			continue
		}
		if b.cols[c].nulls == b.n && f.kind >= kPtrString {
			continue
		}
		plan = append(plan, hashStep{col: &b.cols[c], fixed: f.prefix, kind: f.kind})
	}
	return plan
}

// contentHash is rowType.contentHash of row r of a batch: the same bytes
// hashed, read from the columns that plan (hashPlan of the batch) names.
func contentHash(plan []hashStep, r int, buf []byte) (uint64, []byte) {
	h := buf[:0]
	for i := range plan {
		st := &plan[i]
		col := st.col
		if col == nil { // a partition value
			h = append(h, st.fixed...)
			continue
		}
		if r < len(col.null) && col.null[r] {
			continue // nil pointer or zero time: nothing hashed
		}
		switch st.kind {
		case kString, kPtrString:
			s := col.str[r]
			if s == "" && st.kind == kString {
				continue
			}
			if unsafe.StringData(s) != st.last || len(s) != st.lastLen || st.hashed == nil {
				st.hashed = appendString(append(st.hashed[:0], st.fixed...), s)
				st.last, st.lastLen = unsafe.StringData(s), len(s)
			}
			h = append(h, st.hashed...)
		default:
			u := col.num[r]
			if u == 0 && (st.kind == kInt64 || st.kind == kFloat64 || st.kind == kBool) {
				continue // the zero value of a plain field
			}
			h = append(h, st.fixed...)
			h = binary.LittleEndian.AppendUint64(h, u)
		}
	}
	return xxh3.Hash(h), h
}
