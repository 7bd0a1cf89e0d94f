package lake

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pqColumn writes one column of a data file: it encodes the column's
// values of a batch straight from the batch's slices into the page being
// filled (no parquet.Value per value), ends the page once it holds as many
// bytes as parquet-go's column buffer would (pageLimit), and keeps the row
// group's pages, statistics, column index and offset index until the row
// group is written (pqFile).
type pqColumn struct {
	spec    pqColumnSpec
	dict    *pqDict // dictionary columns
	plain   bool    // a capped dictionary column writes PLAIN pages until the row group ends
	page    pqPage
	chunk   pqChunk
	scratch *pqScratch // shared by the file's columns
	mark    []uint32   // dictionary bounds: the page that last saw each index
	gen     uint32
}

// pqPage is the page being filled.
type pqPage struct {
	rows, nulls int
	defs        []byte   // definition levels (optional columns)
	vals        []byte   // PLAIN doubles, bools one byte each
	sdata       []byte   // strings back to back
	soff        []uint32 // offset of each string in sdata, and the end (parquet-go's byte array layout)
	ints        []int64  // DELTA_BINARY_PACKED values
	idx         []int32  // dictionary indexes
	strBytes    int      // bytes of the string values
	// Bounds of the present values: a string's as its place in sdata, a
	// number's as its bits.
	bounded          bool
	minOff, minLen   int
	maxOff, maxLen   int
	minBits, maxBits uint64
}

// pqChunk is the column chunk of the row group being written.
type pqChunk struct {
	pages     []byte // data pages, headers included
	meta      format.ColumnMetaData
	indexer   parquet.ColumnIndexer
	locs      []format.PageLocation
	rows      int64
	unencoded int64 // bytes of the string values of pages not dictionary-encoded (SizeStatistics)
	defHist   []int64
	pageHists []int64
	dictPage  []byte // set when the row group is written
}

// pqScratch holds the buffers a page is encoded and compressed in, reused
// from page to page by every column of a file.
type pqScratch struct {
	defs, enc, comp []byte
	hdr             bytes.Buffer
}

func newPQColumn(spec pqColumnSpec, meta format.ColumnMetaData, scratch *pqScratch) *pqColumn {
	c := &pqColumn{spec: spec, scratch: scratch}
	if spec.dict {
		c.dict = newPQDict()
	}
	c.chunk.meta = meta
	c.chunk.indexer = spec.indexer()
	if spec.optional {
		c.chunk.defHist = make([]int64, 2)
	}
	return c
}

// dictActive reports whether the column's pages are dictionary indexes.
func (c *pqColumn) dictActive() bool { return c.dict != nil && !c.plain }

// add appends rows [i, j) of col, a column of a batch of n rows.
func (c *pqColumn) add(col *colData, n, i, j int) {
	p := &c.page
	rows := j - i
	var null []bool
	if c.spec.optional {
		if col.nulls == n && len(col.null) == 0 { // null in every row of the batch
			p.defs = room(p.defs, rows, fullDefs)[:len(p.defs)+rows]
			clear(p.defs[len(p.defs)-rows:])
			p.rows += rows
			p.nulls += rows
			return
		}
		null = col.null[i:j]
		base := len(p.defs)
		p.defs = room(p.defs, rows, fullDefs)[:base+rows]
		defs, nulls := p.defs[base:], 0
		for k, isNull := range null {
			d := *(*byte)(unsafe.Pointer(&isNull)) // 0 or 1
			defs[k] = d ^ 1
			nulls += int(d)
		}
		p.nulls += nulls
	}
	p.rows += rows
	switch c.spec.kind {
	case kString:
		c.addStrings(col.str[i:j], null)
	case kInt64, kTime:
		vals := col.num[i:j]
		if len(vals) == 0 {
			break
		}
		lo, hi := int64(p.minBits), int64(p.maxBits)
		if !p.bounded {
			lo, hi = math.MaxInt64, math.MinInt64
		}
		n0 := len(p.ints)
		p.ints = room(p.ints, len(vals), fullNums)
		for k, u := range vals {
			if k < len(null) && null[k] {
				continue
			}
			v := int64(u)
			p.ints = append(p.ints, v)
			lo, hi = min(lo, v), max(hi, v)
		}
		if len(p.ints) > n0 {
			p.bounded, p.minBits, p.maxBits = true, uint64(lo), uint64(hi)
		}
	case kFloat64:
		p.vals = room(p.vals, 8*rows, 8*fullNums)
		for k, u := range col.num[i:j] {
			if k < len(null) && null[k] {
				continue
			}
			p.vals = binary.LittleEndian.AppendUint64(p.vals, u)
			if v := math.Float64frombits(u); !p.bounded {
				p.bounded, p.minBits, p.maxBits = true, u, u
			} else if v < math.Float64frombits(p.minBits) {
				p.minBits = u
			} else if v > math.Float64frombits(p.maxBits) {
				p.maxBits = u
			}
		}
	case kBool:
		p.vals = room(p.vals, rows, fullDefs)
		for k, u := range col.num[i:j] {
			if k < len(null) && null[k] {
				continue
			}
			p.vals = append(p.vals, byte(u))
			if !p.bounded {
				p.bounded, p.minBits, p.maxBits = true, u, u
			} else {
				p.minBits, p.maxBits = min(p.minBits, u), max(p.maxBits, u)
			}
		}
	}
}

// addStrings appends string values (null rows skipped): dictionary
// indexes, or the bytes with the page's bounds kept as places in sdata.
func (c *pqColumn) addStrings(strs []string, null []bool) {
	p := &c.page
	// The batch's strings do not change during the call: a value with the
	// previous one's bytes (decoders share an episode's id between its
	// rows and intern low-cardinality values) is that value again.
	var prev *byte
	prevLen := -1
	if c.dictActive() {
		var idx int32
		p.idx = room(p.idx, len(strs), fullIdx)
		for k, s := range strs {
			if k < len(null) && null[k] {
				continue
			}
			if unsafe.StringData(s) != prev || len(s) != prevLen {
				idx, prev, prevLen = c.dict.lookup(s), unsafe.StringData(s), len(s)
			}
			p.idx = append(p.idx, idx)
			p.strBytes += len(s)
		}
		return
	}
	if len(p.soff) == 0 {
		p.soff = append(p.soff, 0)
	}
	p.soff = room(p.soff, len(strs), fullIdx)
	for k, s := range strs {
		if k < len(null) && null[k] {
			continue
		}
		off := len(p.sdata)
		if cap(p.sdata)-off < len(s) {
			p.sdata = room(p.sdata, len(s), pageLimit)
		}
		p.sdata = append(p.sdata, s...)
		p.soff = append(p.soff, uint32(len(p.sdata)))
		p.strBytes += len(s)
		if unsafe.StringData(s) == prev && len(s) == prevLen {
			continue // already within the bounds
		}
		prev, prevLen = unsafe.StringData(s), len(s)
		switch {
		case !p.bounded:
			p.bounded, p.minOff, p.minLen, p.maxOff, p.maxLen = true, off, len(s), off, len(s)
		case s < p.str(p.minOff, p.minLen):
			p.minOff, p.minLen = off, len(s)
		case s > p.str(p.maxOff, p.maxLen):
			p.maxOff, p.maxLen = off, len(s)
		}
	}
}

// Sizes at which a page's buffers stop growing (room): what a page holds
// when bufferedSize reaches pageLimit, plus a chunk of rows (the size is
// checked after each).
const (
	fullNums = pageLimit/8 + rowGroupCheck // int64 values; doubles as 8 bytes each
	fullIdx  = pageLimit/4 + rowGroupCheck // dictionary indexes, string offsets
	fullDefs = pageLimit/5 + rowGroupCheck // definition levels, bools
)

// room returns s with room for n more elements. A page's buffers grow in
// two steps, to what the first rows need and then to a page's worth
// (full), not by doubling: a column of a small file stays small, and one
// that fills pages is copied once, not ten times.
func room[T any](s []T, n, full int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	c := len(s) + n
	if cap(s) > 0 {
		c = max(c, full)
	}
	return slices.Grow(s, c-len(s))
}

// str is the string at sdata[off:off+n].
func (p *pqPage) str(off, n int) string {
	return unsafe.String(unsafe.SliceData(p.sdata[off:]), n)
}

// pageLimit is the buffered size at which parquet-go's column writer ends
// a page: 98% of the page buffer.
const pageLimit = pageBytes * 98 / 100 // parquet-go: int32(float64(size) * 0.98)

// bufferedSize is the size parquet-go's column buffer would report for the
// page's values (the page ends once it reaches pageLimit): 8 bytes per
// number, 4 per dictionary index, a string's bytes plus 4, a bit per
// bool, and for an optional column 5 more bytes per row (row index and
// level).
func (c *pqColumn) bufferedSize() int {
	p := &c.page
	present := p.rows - p.nulls
	var n int
	switch {
	case c.spec.kind == kString && c.dictActive():
		n = 4 * present
	case c.spec.kind == kString:
		n = p.strBytes + 4*present
	case c.spec.kind == kBool:
		n = (present + 7) / 8
	default:
		n = 8 * present
	}
	if c.spec.optional {
		n += 5 * p.rows
	}
	return n
}

// bounds returns the page's min and max as Parquet values (null values
// for a page of nulls).
func (c *pqColumn) bounds() (lo, hi parquet.Value, ok bool) {
	p := &c.page
	if c.spec.kind == kString && c.dictActive() {
		return c.dictBounds()
	}
	if !p.bounded {
		return parquet.Value{}, parquet.Value{}, false
	}
	switch c.spec.kind {
	case kString:
		return parquet.ByteArrayValue(p.sdata[p.minOff : p.minOff+p.minLen]), parquet.ByteArrayValue(p.sdata[p.maxOff : p.maxOff+p.maxLen]), true
	case kFloat64:
		return parquet.DoubleValue(math.Float64frombits(p.minBits)), parquet.DoubleValue(math.Float64frombits(p.maxBits)), true
	case kBool:
		return parquet.BooleanValue(p.minBits != 0), parquet.BooleanValue(p.maxBits != 0), true
	default:
		return parquet.Int64Value(int64(p.minBits)), parquet.Int64Value(int64(p.maxBits)), true
	}
}

// dictBounds finds the least and greatest value among the page's
// dictionary indexes, comparing each distinct index once.
func (c *pqColumn) dictBounds() (lo, hi parquet.Value, ok bool) {
	p, s := &c.page, c
	if len(p.idx) == 0 {
		return parquet.Value{}, parquet.Value{}, false
	}
	if len(s.mark) < c.dict.len() {
		s.mark = append(s.mark, make([]uint32, c.dict.len()-len(s.mark))...)
	}
	s.gen++
	if s.gen == 0 { // wrapped: forget every mark
		clear(s.mark)
		s.gen = 1
	}
	var minS, maxS string
	last := int32(-1)
	for _, i := range p.idx {
		if i == last || s.mark[i] == s.gen {
			continue
		}
		last, s.mark[i] = i, s.gen
		v := c.dict.value(i)
		if !ok {
			minS, maxS, ok = v, v, true
		} else if v < minS {
			minS = v
		} else if v > maxS {
			maxS = v
		}
	}
	return parquet.ByteArrayValue([]byte(minS)), parquet.ByteArrayValue([]byte(maxS)), true
}

// reset empties the page.
func (p *pqPage) reset() {
	p.rows, p.nulls, p.strBytes, p.bounded = 0, 0, 0, false
	p.defs, p.vals, p.ints, p.idx = p.defs[:0], p.vals[:0], p.ints[:0], p.idx[:0]
	p.sdata, p.soff = p.sdata[:0], p.soff[:0]
}

// resetChunk starts a new row group.
func (c *pqColumn) resetChunk() {
	ch := &c.chunk
	ch.pages, ch.locs, ch.rows, ch.unencoded, ch.pageHists, ch.dictPage = ch.pages[:0], nil, 0, 0, nil, nil
	clear(ch.defHist)
	ch.indexer.Reset()
	m := &ch.meta
	ch.meta = format.ColumnMetaData{Type: m.Type, Encoding: m.Encoding, PathInSchema: m.PathInSchema, Codec: m.Codec}
	if c.dict != nil {
		c.dict.reset()
	}
	c.plain = false
}

// compareStat compares two statistics values of the column's type (as
// stored in format.Statistics).
func (c *pqColumn) compareStat(a, b []byte) int {
	switch c.spec.kind {
	case kString:
		return strings.Compare(string(a), string(b))
	case kFloat64:
		x, y := math.Float64frombits(binary.LittleEndian.Uint64(a)), math.Float64frombits(binary.LittleEndian.Uint64(b))
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case kBool:
		return int(a[0]) - int(b[0])
	default:
		return cmp.Compare(int64(binary.LittleEndian.Uint64(a)), int64(binary.LittleEndian.Uint64(b)))
	}
}
