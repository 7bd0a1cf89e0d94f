package lake

import (
	"unsafe"
)

// A dictionary cap (WriterOptions.DictionaryBytes) bounds the dictionary
// of a dictionary-encoded column within a row group: past it, the
// column's next pages are PLAIN. A column of few values (judge, model,
// role, a whole file's _src_file) never reaches it; one of many (an
// Inspect log's _src_file names each sample's entry) would otherwise hold
// every distinct value until the row group ends: memory growing with the
// rows, not bounded by bytes. Without a cap (the default) an episode_id
// column stays dictionary-encoded for the whole row group, which DuckDB
// reads with less CPU and memory than PLAIN strings (`trust` over 3M
// tau-bench actions). The cap is checked after each chunk of rows
// (pqFile.write): once the dictionary's bytes pass it, the column's page
// ends and its later pages of the row group are PLAIN, as parquet-go's
// column writer does when a page ends over its DictionaryMaxBytes.

// pqDict is the dictionary of one RLE_DICTIONARY string column within a
// row group: its distinct values in the order they first came (their
// indexes), copied into one buffer, as parquet-go's byte array dictionary
// keeps them. Its size is the bytes of the distinct values (parquet-go's
// Dictionary.Size), which the dictionary cap compares.
type pqDict struct {
	data   []byte // the values, back to back
	ends   []int  // end of value i in data
	index  map[string]int32
	recent [4]struct {
		s string
		i int32
	} // the values looked up last (the dictionary's own copies; i < 0: empty slot)
	next int
}

func newPQDict() *pqDict {
	d := &pqDict{}
	d.reset()
	return d
}

// lookup returns the index of s, adding it when new.
func (d *pqDict) lookup(s string) int32 {
	for k := range d.recent {
		r := &d.recent[k]
		if r.i >= 0 && r.s == s {
			return r.i
		}
	}
	i, ok := d.index[s]
	if !ok {
		if d.index == nil {
			d.index = map[string]int32{}
		}
		i = int32(len(d.ends))
		d.data = append(d.data, s...)
		d.ends = append(d.ends, len(d.data))
		d.index[d.value(i)] = i
	}
	d.recent[d.next].s, d.recent[d.next].i = d.value(i), i
	d.next = (d.next + 1) % len(d.recent)
	return i
}

// value returns value i (pointing into the dictionary's buffer, valid
// until the dictionary grows or is reset).
func (d *pqDict) value(i int32) string {
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	b := d.data[start:d.ends[i]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// size is the bytes of the distinct values.
func (d *pqDict) size() int { return len(d.data) }

// len is the number of distinct values.
func (d *pqDict) len() int { return len(d.ends) }

// reset empties the dictionary for a new row group.
func (d *pqDict) reset() {
	clear(d.index)
	d.data, d.ends = d.data[:0], d.ends[:0]
	for k := range d.recent {
		d.recent[k].s, d.recent[k].i = "", -1
	}
}
