package lake

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sort"
	"syscall"
)

// located is a stored row's key entry and where the row is.
type located struct {
	keyEntry
	file uint32 // index into partIndex.files
	row  uint32 // row number within the file
}

// partIndex is the key index of one partition in memory: the key index
// files mapped read-only (24 bytes a stored row, straight from the page
// cache: no copy, no fresh memory), and the rows' ordinals bucketed by the
// top bits of the key hash (hashes are uniform, so buckets hold a few),
// found with one directory read and a short scan. The buckets hold 8 bytes
// a row, not the 24-byte entries: the ordinal and 32 bits of the key, so
// filling them is a scatter into a table that mostly stays in cache, and a
// lookup reads a stored entry (a cache miss into the mapping) only for a
// candidate whose 32 bits match.
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
	ents   [][]byte // each file's entries, 24 bytes a row
	maps   [][]byte // the mappings behind ents (release unmaps them)
	shift  uint
	dir    []uint32 // bucket b holds ords[dir[b]:dir[b+1]]
	ords   []uint64 // a row's ordinal << 32 | the low 32 bits of its key[1]
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

// find looks key up in the buckets, without the filter.
func (px *partIndex) find(key [2]uint64) (located, bool) {
	if len(px.ords) == 0 {
		return located{}, false
	}
	b := key[0] >> px.shift
	for _, s := range px.ords[px.dir[b]:px.dir[b+1]] {
		if uint32(s) != uint32(key[1]) {
			continue // the entry itself is not read: most candidates end here
		}
		o := uint32(s >> 32)
		fi := sort.Search(len(px.starts), func(i int) bool { return px.starts[i] > o }) - 1
		row := o - px.starts[fi]
		if e := decodeKeyEntry(px.ents[fi][keyEntryBytes*int(row):]); e.key == key {
			return located{keyEntry: e, file: uint32(fi), row: row}, true
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
	px.ents = make([][]byte, len(files))
	for i, f := range files {
		if f.Keys != "" {
			m, err := mapKeysFile(tx.l.root, f)
			if m != nil {
				px.maps = append(px.maps, m)
			}
			if err != nil {
				px.release()
				return nil, fmt.Errorf("%w (run `trustlake lake check`)", err)
			}
			px.ents[i] = m[len(keysMagic):]
			continue
		}
		entries, err := t.ops.fileKeys(tx.l.root, t, f)
		if err == nil && int64(len(entries)) != f.Rows {
			err = fmt.Errorf("%s: %d rows, manifest says %d (run `trustlake lake check`)", f.Path, len(entries), f.Rows)
		}
		if err == nil {
			err = tx.addKeys(f, entries)
		}
		if err != nil {
			px.release()
			return nil, err
		}
		px.ents[i] = make([]byte, keyEntryBytes*len(entries))
		for r, e := range entries {
			putKeyEntry(px.ents[i][keyEntryBytes*r:], e)
		}
	}
	px.build()
	return px, nil
}

// build fills the filter and the buckets from px.ents.
func (px *partIndex) build() {
	total := 0
	for _, e := range px.ents {
		total += len(e) / keyEntryBytes
	}
	nb := max(1, bits.Len64(uint64(total)/4))
	px.shift = uint(64 - nb)
	px.dir = make([]uint32, (1<<nb)+1)
	px.filter = make([]uint64, 1<<nb)
	// Two passes over the entries: count per bucket (and fill the filter),
	// then place.
	for _, ents := range px.ents {
		for off := 0; off+keyEntryBytes <= len(ents); off += keyEntryBytes {
			e := decodeKeyEntry(ents[off:])
			px.dir[(e.key[0]>>px.shift)+1]++
			px.filter[e.key[1]>>px.shift] |= filterBits(e.key[1])
		}
	}
	for b := 1; b < len(px.dir); b++ {
		px.dir[b] += px.dir[b-1]
	}
	px.ords = make([]uint64, total)
	next := make([]uint32, len(px.dir)-1)
	copy(next, px.dir)
	var o uint32
	for _, ents := range px.ents {
		for off := 0; off+keyEntryBytes <= len(ents); off += keyEntryBytes {
			b := binary.LittleEndian.Uint64(ents[off:]) >> px.shift
			px.ords[next[b]] = uint64(o)<<32 | uint64(binary.LittleEndian.Uint32(ents[off+8:]))
			next[b]++
			o++
		}
	}
}

// release unmaps the key index files; the index then holds nothing (every
// lookup says "not stored"), so it is for a Writer that is done.
func (px *partIndex) release() {
	px.ents, px.ords = nil, nil
	for _, m := range px.maps {
		syscall.Munmap(m)
	}
	px.maps = nil
}
