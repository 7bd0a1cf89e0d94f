package keyindex

import (
	"encoding/binary"
	"math/bits"
	"sort"
)

// Located is a stored row's entry and where the row is.
type Located struct {
	Entry
	File uint32 // index of the row's file in the slices given to New
	Row  uint32 // row number within the file
}

// Index is the key index of a set of data files (one partition) in
// memory: their entries (24 bytes a stored row, typically mapped straight
// from the page cache: no copy, no fresh memory), and the rows' ordinals
// bucketed by the top bits of the key hash (hashes are uniform, so buckets
// hold a few), found with one directory read and a short scan. The buckets
// hold 8 bytes a row, not the 24-byte entries: the ordinal and 32 bits of
// the key, so filling them is a scatter into a table that mostly stays in
// cache, and a lookup reads a stored entry (a cache miss into the entries)
// only for a candidate whose 32 bits match.
//
// In front of the buckets sits a filter of 2–4 bytes per entry (a Bloom
// filter with one 64-bit word per key, three bits set). Appended rows are
// mostly new keys, and rows of many partitions arrive interleaved, so
// without it every lookup is a cache miss into the buckets; with it, most
// new keys are answered with one read, which callers can issue for many
// keys in a row (MayHold) so that the reads overlap.
//
// An Index is safe for concurrent lookups; Release is not.
type Index struct {
	starts []uint32 // ordinal of each file's first row
	ents   [][]byte // each file's entries
	maps   [][]byte // mappings behind ents (Release unmaps them)
	shift  uint
	dir    []uint32 // bucket b holds ords[dir[b]:dir[b+1]]
	ords   []uint64 // a row's ordinal << 32 | the low 32 bits of its Key[1]
	filter []uint64 // word Key[1]>>shift, bits filterBits(Key[1])
}

// New indexes the entries of files, each EntryBytes a row, in file order;
// maps are mappings (from Map) that Release unmaps. The total must be
// below 2^32 rows.
func New(ents [][]byte, maps [][]byte) *Index {
	x := &Index{ents: ents, maps: maps, starts: make([]uint32, len(ents))}
	total := 0
	for i, e := range ents {
		x.starts[i] = uint32(total)
		total += len(e) / EntryBytes
	}
	if total > 0 {
		x.build(total)
	}
	return x
}

// filterBits returns the three bits of a key in its filter word; they come
// from the low bits of the second key hash, the word from its top bits.
func filterBits(k uint64) uint64 {
	return 1<<(k&63) | 1<<((k>>6)&63) | 1<<((k>>12)&63)
}

// MayHold reports whether key may be stored: false is certain.
func (x *Index) MayHold(key [2]uint64) bool {
	if len(x.ords) == 0 {
		return false
	}
	m := filterBits(key[1])
	return x.filter[key[1]>>x.shift]&m == m
}

// Find looks key up in the buckets, without the filter.
func (x *Index) Find(key [2]uint64) (Located, bool) {
	if len(x.ords) == 0 {
		return Located{}, false
	}
	b := key[0] >> x.shift
	for _, s := range x.ords[x.dir[b]:x.dir[b+1]] {
		if uint32(s) != uint32(key[1]) {
			continue // the entry itself is not read: most candidates end here
		}
		o := uint32(s >> 32)
		fi := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > o }) - 1
		row := o - x.starts[fi]
		if e := Decode(x.ents[fi][EntryBytes*int(row):]); e.Key == key {
			return Located{Entry: e, File: uint32(fi), Row: row}, true
		}
	}
	return Located{}, false
}

// build fills the filter and the buckets from the entries.
func (x *Index) build(total int) {
	nb := max(1, bits.Len64(uint64(total)/4))
	x.shift = uint(64 - nb)
	x.dir = make([]uint32, (1<<nb)+1)
	x.filter = make([]uint64, 1<<nb)
	// Two passes over the entries: count per bucket (and fill the filter),
	// then place.
	for _, ents := range x.ents {
		for off := 0; off+EntryBytes <= len(ents); off += EntryBytes {
			e := Decode(ents[off:])
			x.dir[(e.Key[0]>>x.shift)+1]++
			x.filter[e.Key[1]>>x.shift] |= filterBits(e.Key[1])
		}
	}
	for b := 1; b < len(x.dir); b++ {
		x.dir[b] += x.dir[b-1]
	}
	x.ords = make([]uint64, total)
	next := make([]uint32, len(x.dir)-1)
	copy(next, x.dir)
	var o uint32
	for _, ents := range x.ents {
		for off := 0; off+EntryBytes <= len(ents); off += EntryBytes {
			b := binary.LittleEndian.Uint64(ents[off:]) >> x.shift
			x.ords[next[b]] = uint64(o)<<32 | uint64(binary.LittleEndian.Uint32(ents[off+8:]))
			next[b]++
			o++
		}
	}
}

// Release unmaps the mapped files; the index then holds nothing (every
// lookup says "not stored"), so it is for a caller that is done.
func (x *Index) Release() {
	x.ents, x.ords = nil, nil
	for _, m := range x.maps {
		Unmap(m)
	}
	x.maps = nil
}
