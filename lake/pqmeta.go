package lake

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pqMeta is what every data file of a table has in common: the footer's
// schema, column orders, format version and creator, and each column's
// fixed chunk metadata (type, encodings, path, codec). It is read, once
// per table, from a one-row file that parquet-go writes with the lake's
// writer options, so the schema (logical types, repetition, the
// timestamp's UTC flag) is exactly the one parquet-go gives the row
// type's struct tags; pqFile fills in everything that depends on the
// rows.
type pqMeta struct {
	file format.FileMetaData     // RowGroups and NumRows left empty
	cols []format.ColumnMetaData // per column: Type, Encoding, PathInSchema, Codec only
	spec []pqColumnSpec
}

// pqColumnSpec is how one column is stored.
type pqColumnSpec struct {
	kind     fieldKind // the row field's kind without the pointer (kString, kInt64, ...)
	optional bool
	dict     bool // RLE_DICTIONARY (a `dict` tag); otherwise DELTA_LENGTH_BYTE_ARRAY for strings, DELTA_BINARY_PACKED for int64, PLAIN
	indexer  func() parquet.ColumnIndexer
}

// columnIndexSizeLimit is parquet-go's default truncation of byte array
// bounds in the column index.
const columnIndexSizeLimit = parquet.DefaultColumnIndexSizeLimit

// newPQMeta derives the file template of the layout's table. It panics
// when parquet-go's file does not match the column layout: a programming
// error every test catches.
func newPQMeta(cl *colLayout) *pqMeta {
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, writerOptions(cl.schema, 1<<20, 0)...)
	if err := w.Write(reflect.New(cl.rt.typ).Interface()); err != nil {
		panic(fmt.Sprintf("lake: %s: write template file: %v", cl.rt.typ.Name(), err))
	}
	if err := w.Close(); err != nil {
		panic(fmt.Sprintf("lake: %s: write template file: %v", cl.rt.typ.Name(), err))
	}
	fm, err := readFooter(buf.Bytes())
	if err != nil || len(fm.RowGroups) != 1 || len(fm.RowGroups[0].Columns) != len(cl.fields) {
		panic(fmt.Sprintf("lake: %s: read template file: %v", cl.rt.typ.Name(), err))
	}
	m := &pqMeta{file: *fm}
	for c, rc := range fm.RowGroups[0].Columns {
		md := rc.MetaData
		m.cols = append(m.cols, format.ColumnMetaData{Type: md.Type, Encoding: md.Encoding, PathInSchema: md.PathInSchema, Codec: md.Codec})
		f := cl.rt.fields[cl.fields[c]]
		leaf, _ := cl.schema.Lookup(md.PathInSchema...)
		s := pqColumnSpec{kind: f.kind, optional: f.kind >= kPtrString}
		if s.optional {
			s.kind -= kPtrString - kString
		}
		s.dict = leaf.Node.Encoding() != nil && leaf.Node.Encoding().Encoding() == format.RLEDictionary
		typ := leaf.Node.Type()
		s.indexer = func() parquet.ColumnIndexer { return typ.NewColumnIndexer(columnIndexSizeLimit) }
		if want := s.encodings(); !slices.Equal(md.Encoding, want) || (s.dict && s.kind != kString) {
			panic(fmt.Sprintf("lake: %s.%s: parquet-go encodes the column %v, the lake's writer %v", cl.rt.typ.Name(), f.name, md.Encoding, want))
		}
		m.spec = append(m.spec, s)
	}
	m.file.RowGroups, m.file.NumRows = nil, 0
	return m
}

// encodings is the column chunk's list of encodings, as parquet-go lists
// it: levels (RLE) for an optional column, PLAIN for a dictionary page or
// PLAIN values, the data pages' encoding; sorted.
func (s pqColumnSpec) encodings() []format.Encoding {
	var e []format.Encoding
	add := func(x format.Encoding) {
		if !slices.Contains(e, x) {
			e = append(e, x)
		}
	}
	if s.optional {
		add(format.RLE)
	}
	if s.dict {
		add(format.Plain)
	}
	add(s.encoding())
	slices.Sort(e)
	return e
}

// encoding is the encoding of the column's data pages (before a
// dictionary cap switches them to PLAIN).
func (s pqColumnSpec) encoding() format.Encoding {
	switch {
	case s.dict:
		return format.RLEDictionary
	case s.kind == kString:
		return format.DeltaLengthByteArray
	case s.kind == kInt64 || s.kind == kTime:
		return format.DeltaBinaryPacked
	default:
		return format.Plain
	}
}

// readFooter decodes the footer of a whole Parquet file held in memory.
func readFooter(b []byte) (*format.FileMetaData, error) {
	if len(b) < 12 || string(b[:4]) != "PAR1" || string(b[len(b)-4:]) != "PAR1" {
		return nil, fmt.Errorf("not a parquet file")
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if n > len(b)-12 {
		return nil, fmt.Errorf("footer of %d bytes in a file of %d", n, len(b))
	}
	fm := new(format.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[len(b)-8-n:len(b)-8], fm); err != nil {
		return nil, fmt.Errorf("decode footer: %w", err)
	}
	return fm, nil
}
