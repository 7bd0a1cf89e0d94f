package lake

import (
	"cmp"
	"hash/crc32"
	"slices"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/plain"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// The encoders of page data; stateless.
var (
	levelEncoding  = rle.Encoding{BitWidth: 1}
	dictEncoding   rle.DictionaryEncoding
	deltaEncoding  delta.BinaryPackedEncoding
	lengthEncoding delta.LengthByteArrayEncoding
	plainEncoding  plain.Encoding
)

// endPage encodes and compresses the page being filled (a data page v2:
// levels uncompressed, values compressed, CRC of both), appends it to the
// row group's pages and records its statistics, as parquet-go's column
// writer does; an empty page writes nothing.
func (c *pqColumn) endPage(codec compress.Codec) error {
	p, s := &c.page, c.scratch
	if p.rows == 0 {
		return nil
	}
	s.defs = s.defs[:0]
	if c.spec.optional {
		var err error
		if s.defs, err = levelEncoding.EncodeLevels(s.defs, p.defs); err != nil {
			return err
		}
	}
	enc, data, err := c.encodeValues()
	if err != nil {
		return err
	}
	if s.comp, err = codec.Encode(s.comp[:0], data); err != nil {
		return err
	}
	crc := crc32.Update(crc32.ChecksumIEEE(s.defs), crc32.IEEETable, s.comp)
	h := format.PageHeader{
		Type:                 format.DataPageV2,
		UncompressedPageSize: int32(len(s.defs) + len(data)),
		CompressedPageSize:   int32(len(s.defs) + len(s.comp)),
		CRC:                  int32(crc),
		DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{
			NumValues:                  int32(p.rows),
			NumNulls:                   int32(p.nulls),
			NumRows:                    int32(p.rows),
			Encoding:                   enc,
			DefinitionLevelsByteLength: int32(len(s.defs)),
			IsCompressed:               thrift.New(true),
		}),
	}
	hdr, err := s.header(&h)
	if err != nil {
		return err
	}
	ch := &c.chunk
	ch.pages = append(append(append(ch.pages, hdr...), s.defs...), s.comp...)

	lo, hi, ok := c.bounds()
	ch.indexer.IndexPage(int64(p.rows), int64(p.nulls), lo, hi)
	ch.meta.NumValues += int64(p.rows)
	ch.meta.Statistics.NullCount += int64(p.nulls)
	if ok {
		st := &ch.meta.Statistics
		if st.MaxValue == nil || st.MinValue == nil || c.compareStat(hi.Bytes(), st.MaxValue) > 0 {
			st.MaxValue = hi.AppendBytes(make([]byte, 0, len(hi.Bytes())))
		}
		if st.MinValue == nil || c.compareStat(lo.Bytes(), st.MinValue) < 0 {
			st.MinValue = lo.AppendBytes(make([]byte, 0, len(lo.Bytes())))
		}
	}
	compressed := int32(len(hdr)) + h.CompressedPageSize
	ch.locs = append(ch.locs, format.PageLocation{Offset: ch.meta.TotalCompressedSize, CompressedPageSize: compressed, FirstRowIndex: ch.rows})
	ch.rows += int64(p.rows)
	if enc != format.RLEDictionary && c.spec.kind == kString {
		ch.unencoded += int64(p.strBytes)
	}
	if c.spec.optional {
		ch.defHist[0] += int64(p.nulls)
		ch.defHist[1] += int64(p.rows - p.nulls)
		ch.pageHists = append(ch.pageHists, int64(p.nulls), int64(p.rows-p.nulls))
	}
	c.record(&h, len(hdr), enc)
	p.reset()
	return nil
}

// encodeValues returns the page's values encoded, and their encoding.
func (c *pqColumn) encodeValues() (format.Encoding, []byte, error) {
	p, s := &c.page, c.scratch
	var err error
	switch {
	case c.spec.kind == kString && c.dictActive():
		s.enc, err = dictEncoding.EncodeInt32(s.enc[:0], p.idx)
		return format.RLEDictionary, s.enc, err
	case c.spec.kind == kString:
		if len(p.soff) == 0 {
			p.soff = append(p.soff, 0)
		}
		if c.plain { // past the dictionary cap
			s.enc, err = plainEncoding.EncodeByteArray(s.enc[:0], p.sdata, p.soff)
			return format.Plain, s.enc, err
		}
		s.enc, err = lengthEncoding.EncodeByteArray(s.enc[:0], p.sdata, p.soff)
		return format.DeltaLengthByteArray, s.enc, err
	case c.spec.kind == kInt64 || c.spec.kind == kTime:
		s.enc, err = deltaEncoding.EncodeInt64(s.enc[:0], p.ints)
		return format.DeltaBinaryPacked, s.enc, err
	case c.spec.kind == kBool:
		s.enc = slices.Grow(s.enc[:0], (len(p.vals)+7)/8)[:(len(p.vals)+7)/8]
		clear(s.enc)
		for k, b := range p.vals {
			s.enc[k/8] |= b << (k % 8)
		}
		return format.Plain, s.enc, nil
	default: // PLAIN doubles are encoded as they come
		return format.Plain, p.vals, nil
	}
}

// record adds a written page's sizes and encoding to the chunk metadata.
func (c *pqColumn) record(h *format.PageHeader, hdrLen int, enc format.Encoding) {
	m := &c.chunk.meta
	m.TotalUncompressedSize += int64(hdrLen) + int64(h.UncompressedPageSize)
	m.TotalCompressedSize += int64(hdrLen) + int64(h.CompressedPageSize)
	for k := range m.EncodingStats {
		if st := &m.EncodingStats[k]; st.PageType == h.Type && st.Encoding == enc {
			st.Count++
			return
		}
	}
	m.EncodingStats = append(m.EncodingStats, format.PageEncodingStats{PageType: h.Type, Encoding: enc, Count: 1})
}

// dictionaryPage encodes the row group's dictionary (PLAIN, compressed)
// into chunk.dictPage and records it.
func (c *pqColumn) dictionaryPage(codec compress.Codec) error {
	s, d := c.scratch, c.dict
	s.enc = s.enc[:0]
	for i := range d.len() {
		s.enc = plain.AppendByteArrayString(s.enc, d.value(int32(i)))
	}
	var err error
	if s.comp, err = codec.Encode(s.comp[:0], s.enc); err != nil {
		return err
	}
	h := format.PageHeader{
		Type:                 format.DictionaryPage,
		UncompressedPageSize: int32(len(s.enc)),
		CompressedPageSize:   int32(len(s.comp)),
		CRC:                  int32(crc32.ChecksumIEEE(s.comp)),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(d.len()), Encoding: format.Plain}),
	}
	hdr, err := s.header(&h)
	if err != nil {
		return err
	}
	c.chunk.dictPage = append(append(c.chunk.dictPage[:0], hdr...), s.comp...)
	c.record(&h, len(hdr), format.Plain)
	return nil
}

// header encodes a page header (thrift compact protocol).
func (s *pqScratch) header(h *format.PageHeader) ([]byte, error) {
	s.hdr.Reset()
	if err := thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(&s.hdr)).Encode(h); err != nil {
		return nil, err
	}
	return s.hdr.Bytes(), nil
}

// finishChunk completes the chunk's metadata once its last page is
// written: the column index with its level histograms, the size
// statistics, the encoding statistics in parquet-go's order.
func (c *pqColumn) finishChunk() (format.ColumnIndex, format.OffsetIndex) {
	ch := &c.chunk
	ci := ch.indexer.ColumnIndex()
	ci.RepetitionLevelHistogram = nil
	ci.DefinitionLevelHistogram = append(ci.DefinitionLevelHistogram[:0], ch.pageHists...)
	ch.meta.SizeStatistics = format.SizeStatistics{
		UnencodedByteArrayDataBytes: ch.unencoded,
		DefinitionLevelHistogram:    slices.Clone(ch.defHist),
	}
	slices.SortFunc(ch.meta.EncodingStats, func(a, b format.PageEncodingStats) int {
		if k := cmp.Compare(a.PageType, b.PageType); k != 0 {
			return k
		}
		return cmp.Compare(a.Encoding, b.Encoding)
	})
	return ci, format.OffsetIndex{PageLocations: ch.locs}
}
