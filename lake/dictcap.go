package lake

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// A dictionary cap (WriterOptions.DictionaryBytes) bounds the dictionary
// of a dictionary-encoded column within a row group: past it, the
// column's next pages are PLAIN. A column of few values (judge, model,
// role, a whole file's _src_file) never reaches it; one of many (an
// Inspect log's _src_file names each sample's entry) would otherwise hold
// every distinct value, copied twice and hashed, until the row group
// ends: memory growing with the rows, not bounded by bytes. Without a cap
// (the default) an episode_id column stays dictionary-encoded for the
// whole row group, which DuckDB reads with less CPU and memory than PLAIN
// strings (`trust` over 3M tau-bench actions).

// dictCap bounds the dictionary of one dictionary-encoded (string) column
// of a file within a row group. parquet-go compares a dictionary with
// DictionaryMaxBytes only when a page ends, and a page of dictionary
// indexes ends by itself only after ~16,000 rows; ending the page every
// few rows costs a page (header, statistics, compression) each time. So
// the writer adds up the bytes of the distinct values written since the
// row group began, as parquet-go's Dictionary.Size does, and ends the
// column's page once they pass the cap: parquet-go then writes the rest of
// the row group PLAIN.
type dictCap struct {
	col    int
	max    int                 // the cap, in bytes
	bytes  int                 // distinct value bytes in this row group
	seen   map[string]struct{} // the distinct values, copied
	recent [4]string           // values seen last: few distinct values rarely reach seen
	next   int                 // slot of recent to replace
	full   bool                // past the cap: PLAIN until the row group ends
}

// dictCaps returns a cap of max bytes for each dictionary-encoded string
// column of s (the lake has no other dictionary columns; another one's
// dictionary would be bounded by the row group alone).
func dictCaps(s *parquet.Schema, max int) []dictCap {
	var out []dictCap
	for _, path := range s.Columns() {
		leaf, ok := s.Lookup(path...)
		if ok && leaf.Node.Type().Kind() == parquet.ByteArray &&
			leaf.Node.Encoding() != nil && leaf.Node.Encoding().Encoding() == format.RLEDictionary {
			out = append(out, dictCap{col: leaf.ColumnIndex, max: max})
		}
	}
	return out
}

// reset starts a new row group (a new dictionary).
func (d *dictCap) reset() {
	clear(d.seen)
	d.bytes, d.recent, d.next, d.full = 0, [4]string{}, 0, false
}

// add counts the distinct values among vals (null rows skipped) and
// reports whether the dictionary is now past the cap.
func (d *dictCap) add(vals []string, null []bool) bool {
	for r, s := range vals {
		if r < len(null) && null[r] {
			continue
		}
		if d.isRecent(s) {
			continue
		}
		if _, ok := d.seen[s]; !ok {
			if d.seen == nil {
				d.seen = map[string]struct{}{}
			}
			d.seen[strings.Clone(s)] = struct{}{}
			if d.bytes += len(s); d.bytes > d.max {
				return true
			}
		}
		d.recent[d.next] = s
		d.next = (d.next + 1) % len(d.recent)
	}
	return false
}

// isRecent reports whether s is one of the values seen last. Decoders
// intern low-cardinality strings, so the data pointers mostly match.
func (d *dictCap) isRecent(s string) bool {
	for _, r := range d.recent {
		if len(r) == len(s) && (unsafe.StringData(r) == unsafe.StringData(s) || r == s) {
			return true
		}
	}
	return false
}

// capDictionaries counts the values of rows [i, j) of the batch in each
// dictionary column's cap (after they were written) and ends the page of
// a column whose dictionary passed it.
func (fw *fileWriter) capDictionaries(b *colBatch, i, j int) error {
	cols := fw.w.ColumnWriters()
	for k := range fw.dicts {
		d := &fw.dicts[k]
		col := &b.cols[d.col]
		if d.full || col.nulls == b.n {
			continue
		}
		null := col.null
		if null != nil {
			null = null[i:j]
		}
		if d.add(col.str[i:j], null) {
			d.full = true
			if err := cols[d.col].Flush(); err != nil {
				return fmt.Errorf("write %s: %w", fw.rel, err)
			}
		}
	}
	return nil
}
