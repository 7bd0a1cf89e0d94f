package lake

import (
	"fmt"
	"math/bits"
	"sort"
)

// located is a stored row's key entry and where the row is.
type located struct {
	keyEntry
	file uint32 // index into partIndex.files
	row  uint32 // row number within the file
}

// partIndex is the key index of one partition in memory: the key index
// files' entries back to back as read (24 bytes a stored row, one
// sequential read per file), and their ordinals bucketed by the top bits of
// the key hash (hashes are uniform, so buckets hold a few), found with one
// directory read and a short scan. The buckets hold 4-byte ordinals, not
// the entries: filling them is a scatter into a table that stays in cache.
//
// In front of the buckets sits a filter of 2–4 bytes per entry (a Bloom
// filter with one 64-bit word per key, three bits set). Appended rows are
// mostly new keys, and rows of many partitions arrive interleaved, so
// without it every lookup is a cache miss into the buckets; with it, all
// but ≈ 0.5% of new keys are answered with one read (Writer.Probe issues
// those reads a chunk at a time, so they overlap).
type partIndex struct {
	files  []FileEntry
	starts []uint32 // ordinal of each file's first row
	raw    []byte   // entry of ordinal i at raw[24*i:]
	shift  uint
	dir    []uint32 // bucket b holds ords[dir[b]:dir[b+1]]
	ords   []uint32
	filter []uint64 // word key[1]>>shift, bits filterBits(key[1])
}

// filterBits returns the three bits of a key in its filter word; they come
// from the low bits of the second key hash, the word from its top bits.
func filterBits(k uint64) uint64 {
	return 1<<(k&63) | 1<<((k>>6)&63) | 1<<((k>>12)&63)
}

// mayHold reports whether key may be stored: false is certain.
func (px *partIndex) mayHold(key [2]uint64) bool {
	if len(px.ords) == 0 {
		return false
	}
	m := filterBits(key[1])
	return px.filter[key[1]>>px.shift]&m == m
}

func (px *partIndex) lookup(key [2]uint64) (located, bool) {
	if !px.mayHold(key) {
		return located{}, false
	}
	return px.find(key)
}

// find looks key up in the buckets, without the filter.
func (px *partIndex) find(key [2]uint64) (located, bool) {
	if len(px.ords) == 0 {
		return located{}, false
	}
	b := key[0] >> px.shift
	for _, o := range px.ords[px.dir[b]:px.dir[b+1]] {
		if e := decodeKeyEntry(px.raw[keyEntryBytes*int(o):]); e.key == key {
			fi := sort.Search(len(px.starts), func(i int) bool { return px.starts[i] > o }) - 1
			return located{keyEntry: e, file: uint32(fi), row: o - px.starts[fi]}, true
		}
	}
	return located{}, false
}

// loadPartIndex reads the key index files of a partition's data files.
// Files written before the index existed (no Keys in the manifest) are read
// row by row once and get an index file in this transaction (upgrade).
func loadPartIndex(tx *Tx, t Table, files []FileEntry) (*partIndex, error) {
	px := &partIndex{files: files, starts: make([]uint32, len(files))}
	var total int64
	for i, f := range files {
		px.starts[i] = uint32(total)
		total += f.Rows
	}
	if total == 0 {
		return px, nil
	}
	if total >= 1<<32 {
		return nil, fmt.Errorf("partition of %s holds %d rows; compact or split it", t.Name, total)
	}
	px.raw = make([]byte, keyEntryBytes*total)
	for i, f := range files {
		dst := px.raw[keyEntryBytes*int64(px.starts[i]) : keyEntryBytes*(int64(px.starts[i])+f.Rows)]
		if f.Keys != "" {
			if err := readKeysFile(tx.l.root, f, dst); err != nil {
				return nil, fmt.Errorf("%w (run `trustlake lake check`)", err)
			}
			continue
		}
		entries, err := t.ops.fileKeys(tx.l.root, t, f)
		if err != nil {
			return nil, err
		}
		if int64(len(entries)) != f.Rows {
			return nil, fmt.Errorf("%s: %d rows, manifest says %d (run `trustlake lake check`)", f.Path, len(entries), f.Rows)
		}
		if err := tx.addKeys(f, entries); err != nil {
			return nil, err
		}
		for r, e := range entries {
			putKeyEntry(dst[keyEntryBytes*r:], e)
		}
	}
	px.build()
	return px, nil
}

// build fills the filter and the buckets from px.raw.
func (px *partIndex) build() {
	total := len(px.raw) / keyEntryBytes
	nb := max(1, bits.Len64(uint64(total)/4))
	px.shift = uint(64 - nb)
	px.dir = make([]uint32, (1<<nb)+1)
	px.filter = make([]uint64, 1<<nb)
	// Two passes over the entries: count per bucket (and fill the filter),
	// then place.
	for off := 0; off < len(px.raw); off += keyEntryBytes {
		e := decodeKeyEntry(px.raw[off:])
		px.dir[(e.key[0]>>px.shift)+1]++
		px.filter[e.key[1]>>px.shift] |= filterBits(e.key[1])
	}
	for b := 1; b < len(px.dir); b++ {
		px.dir[b] += px.dir[b-1]
	}
	px.ords = make([]uint32, total)
	next := make([]uint32, len(px.dir)-1)
	copy(next, px.dir)
	for o := range uint32(total) {
		b := decodeKeyEntry(px.raw[keyEntryBytes*int(o):]).key[0] >> px.shift
		px.ords[next[b]] = o
		next[b]++
	}
}
