package lake

import (
	"bufio"
	"encoding/binary"
	"io"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pqFile writes one Parquet data file from column batches: the lake's
// typed write path under parquet-go's boxed values. Each column encodes
// its values straight from the batch's slices (pqColumn); pages, row
// groups, statistics, column and offset indexes and the footer are laid
// out the way parquet-go's writer lays them out with the lake's options
// (writerOptions: data pages v2 without page statistics, int64 columns
// DELTA_BINARY_PACKED, `dict` columns RLE_DICTIONARY, zstd pages of
// pageBytes), so a file is the same bytes parquet-go writes for the same
// rows (TestPQFileMatchesParquetGo). Not safe for concurrent use.
type pqFile struct {
	out      *bufio.Writer
	offset   int64 // bytes written to out
	meta     *pqMeta
	codec    compress.Codec
	cols     []*pqColumn
	dictMax  int   // the dictionary cap (0: none)
	rows     int64 // rows in the row group being written
	groups   []format.RowGroup
	colIdx   [][]format.ColumnIndex
	offIdx   [][]format.OffsetIndex
	enc      *thrift.Encoder // writes to the counting writer
	counting pqCounter
}

// pqCounter counts the bytes written through it into pqFile.offset.
type pqCounter struct{ f *pqFile }

func (w pqCounter) Write(p []byte) (int, error) {
	n, err := w.f.out.Write(p)
	w.f.offset += int64(n)
	return n, err
}

// newPQFile returns a file writer of the table whose template is meta,
// writing to w; dictBytes > 0 caps each dictionary within a row group.
func newPQFile(w io.Writer, meta *pqMeta, codec compress.Codec, dictBytes int) *pqFile {
	f := &pqFile{out: bufio.NewWriterSize(w, 256<<10), meta: meta, codec: codec, dictMax: dictBytes}
	f.counting = pqCounter{f}
	f.enc = thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(f.counting))
	scratch := new(pqScratch)
	for c, s := range meta.spec {
		f.cols = append(f.cols, newPQColumn(s, meta.cols[c], scratch))
	}
	return f
}

// write appends rows [i, j) of the batch (all columns), ending each
// column's page once it is full and, past the dictionary cap, switching
// the column to PLAIN for the rest of the row group.
func (f *pqFile) write(b *colBatch, i, j int) error {
	for c, col := range f.cols {
		col.add(&b.cols[c], b.n, i, j)
		overCap := col.dictActive() && f.dictMax > 0 && col.dict.size() > f.dictMax
		if overCap || col.bufferedSize() >= pageLimit {
			if err := col.endPage(f.codec); err != nil {
				return err
			}
			if overCap {
				col.plain = true
			}
		}
	}
	f.rows += int64(j - i)
	return nil
}

// size is what parquet-go's Writer.Size reports: bytes written, plus
// the row group's pages, buffered values and dictionaries.
func (f *pqFile) size() int64 {
	n := f.offset
	for _, c := range f.cols {
		n += c.chunk.meta.TotalCompressedSize + int64(c.bufferedSize())
		if c.dict != nil {
			n += int64(c.dict.size())
		}
	}
	return n
}

// flush writes the row group (nothing when it holds no rows).
func (f *pqFile) flush() error {
	if f.rows == 0 {
		return nil
	}
	for _, c := range f.cols {
		if err := c.endPage(f.codec); err != nil {
			return err
		}
		if c.dict != nil {
			if err := c.dictionaryPage(f.codec); err != nil {
				return err
			}
		}
	}
	if err := f.magic(); err != nil {
		return err
	}
	rg := format.RowGroup{NumRows: f.rows, FileOffset: f.offset, Ordinal: int16(len(f.groups)), SortingColumns: []format.SortingColumn{}}
	var cis []format.ColumnIndex
	var ois []format.OffsetIndex
	for _, c := range f.cols {
		ci, oi := c.finishChunk()
		ch := &c.chunk
		if c.dict != nil {
			ch.meta.DictionaryPageOffset = f.offset
			if _, err := f.counting.Write(ch.dictPage); err != nil {
				return err
			}
		}
		ch.meta.DataPageOffset = f.offset
		for k := range oi.PageLocations {
			oi.PageLocations[k].Offset += f.offset
		}
		if _, err := f.counting.Write(ch.pages); err != nil {
			return err
		}
		rg.Columns = append(rg.Columns, format.ColumnChunk{MetaData: ch.meta})
		rg.TotalByteSize += ch.meta.TotalUncompressedSize
		rg.TotalCompressedSize += ch.meta.TotalCompressedSize
		cis, ois = append(cis, ci), append(ois, oi)
		c.resetChunk()
	}
	f.groups, f.colIdx, f.offIdx = append(f.groups, rg), append(f.colIdx, cis), append(f.offIdx, ois)
	f.rows = 0
	return nil
}

// magic writes the leading "PAR1" once.
func (f *pqFile) magic() error {
	if f.offset > 0 {
		return nil
	}
	_, err := f.counting.Write([]byte("PAR1"))
	return err
}

// close writes the last row group, the page indexes and the footer, and
// flushes the buffered bytes (it does not close the underlying writer).
func (f *pqFile) close() error {
	if err := f.flush(); err != nil {
		return err
	}
	if err := f.magic(); err != nil {
		return err
	}
	for g := range f.colIdx {
		for c := range f.colIdx[g] {
			cc := &f.groups[g].Columns[c]
			cc.ColumnIndexOffset = f.offset
			if err := f.enc.Encode(&f.colIdx[g][c]); err != nil {
				return err
			}
			cc.ColumnIndexLength = int32(f.offset - cc.ColumnIndexOffset)
		}
	}
	for g := range f.offIdx {
		for c := range f.offIdx[g] {
			cc := &f.groups[g].Columns[c]
			cc.OffsetIndexOffset = f.offset
			if err := f.enc.Encode(&f.offIdx[g][c]); err != nil {
				return err
			}
			cc.OffsetIndexLength = int32(f.offset - cc.OffsetIndexOffset)
		}
	}
	fm := f.meta.file
	fm.RowGroups = f.groups
	for _, g := range f.groups {
		fm.NumRows += g.NumRows
	}
	start := f.offset
	if err := f.enc.Encode(&fm); err != nil {
		return err
	}
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(f.offset-start))
	copy(tail[4:], "PAR1")
	if _, err := f.counting.Write(tail[:]); err != nil {
		return err
	}
	return f.out.Flush()
}
