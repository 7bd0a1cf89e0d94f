package lake

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The key index. Every data file has a companion file in _keys/ holding, in
// the data file's row order, each row's 128-bit natural-key hash and 64-bit
// content hash (24 bytes a row after an 8-byte magic). The manifest entry of
// the data file names it with its size and sha256. A writer that appends to
// a partition reads only these files, never the rows, so an append costs in
// proportion to what is appended plus 24 bytes per stored row of the
// partitions it touches (read sequentially), not a decode of the partition.

const (
	keysDir       = "_keys"
	keysMagic     = "TLKEYS\x00\x01" // format 1: xxh3 key and content hashes of rowType
	keyEntryBytes = 24
)

// keyEntry is one row of a key index file.
type keyEntry struct {
	key     [2]uint64
	content uint64
}

// keysPath returns the key index file of a data file, relative to the root.
func keysPath(dataRel string) string {
	return path.Join(keysDir, strings.TrimSuffix(path.Base(dataRel), ".parquet")+".keys")
}

// keysWriter streams a key index file, hashing it as it goes.
type keysWriter struct {
	f   *os.File
	h   hashWriter
	bw  *bufio.Writer
	buf [keyEntryBytes]byte
}

func newKeysWriter(name string) (*keysWriter, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create key index: %w", err)
	}
	kw := &keysWriter{f: f}
	kw.h = hashWriter{w: f, h: sha256.New()}
	kw.bw = bufio.NewWriterSize(&kw.h, 256<<10)
	kw.bw.WriteString(keysMagic)
	return kw, nil
}

func (kw *keysWriter) add(e keyEntry) {
	binary.LittleEndian.PutUint64(kw.buf[0:], e.key[0])
	binary.LittleEndian.PutUint64(kw.buf[8:], e.key[1])
	binary.LittleEndian.PutUint64(kw.buf[16:], e.content)
	kw.bw.Write(kw.buf[:])
}

// finish flushes and fsyncs the file; it returns its size and sha256.
func (kw *keysWriter) finish() (int64, []byte, error) {
	err := kw.bw.Flush()
	if err == nil {
		err = kw.f.Sync()
	}
	if cerr := kw.f.Close(); err == nil {
		err = cerr
	}
	return kw.h.n, kw.h.h.Sum(nil), err
}

// writeKeysFile writes a whole key index file (used when an old data file
// gets its index, and by compaction through keysWriter).
func writeKeysFile(name string, entries []keyEntry) (int64, []byte, error) {
	kw, err := newKeysWriter(name)
	if err != nil {
		return 0, nil, err
	}
	for _, e := range entries {
		kw.add(e)
	}
	return kw.finish()
}

// readKeysFile reads the key index of f, checking its length against the
// row count of the manifest.
func readKeysFile(root string, f FileEntry, buf []byte) ([]byte, error) {
	name := filepath.Join(root, filepath.FromSlash(f.Keys))
	fh, err := os.Open(name)
	if err != nil {
		return buf, fmt.Errorf("read key index %s: %w", f.Keys, err)
	}
	defer fh.Close()
	want := int64(len(keysMagic)) + keyEntryBytes*f.Rows
	if int64(cap(buf)) < want {
		buf = make([]byte, want)
	}
	buf = buf[:want]
	if n, err := fh.ReadAt(buf, 0); int64(n) != want {
		return buf, fmt.Errorf("read key index %s: %d bytes, want %d for %d rows: %v", f.Keys, n, want, f.Rows, err)
	}
	if st, err := fh.Stat(); err == nil && st.Size() != want {
		return buf, fmt.Errorf("read key index %s: %d bytes, want %d for %d rows", f.Keys, st.Size(), want, f.Rows)
	}
	if string(buf[:len(keysMagic)]) != keysMagic {
		return buf, fmt.Errorf("read key index %s: %w", f.Keys, errBadKeys)
	}
	return buf, nil
}

var errBadKeys = errors.New("not a key index file (or another format)")

func decodeKeyEntry(b []byte) keyEntry {
	return keyEntry{
		key:     [2]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])},
		content: binary.LittleEndian.Uint64(b[16:]),
	}
}

// located is a stored row's key entry and where the row is.
type located struct {
	keyEntry
	file uint32 // index into partIndex.files
	row  uint32 // row number within the file
}

// partIndex is the key index of one partition in memory: entries bucketed
// by the top bits of the key hash (hashes are uniform, so buckets hold a
// few entries), found with one directory read and a short scan.
//
// In front of the buckets sits a filter of 2–4 bytes per entry (a Bloom
// filter with one 64-bit word per key, three bits set). Appended rows are
// mostly new keys, and rows of many partitions arrive interleaved, so
// without it every lookup is a cache miss into a table of 32 bytes per
// stored row; the filter is small enough to stay in cache and answers "not
// stored" for all but ≈ 0.5% of new keys with one read.
type partIndex struct {
	files  []FileEntry
	shift  uint
	dir    []uint32 // bucket b holds ents[dir[b]:dir[b+1]]
	ents   []located
	filter []uint64 // word key[1]>>shift, bits filterBits(key[1])
}

// filterBits returns the three bits of a key in its filter word; they come
// from the low bits of the second key hash, the word from its top bits.
func filterBits(k uint64) uint64 {
	return 1<<(k&63) | 1<<((k>>6)&63) | 1<<((k>>12)&63)
}

func (px *partIndex) lookup(key [2]uint64) (*located, bool) {
	if len(px.ents) == 0 {
		return nil, false
	}
	if m := filterBits(key[1]); px.filter[key[1]>>px.shift]&m != m {
		return nil, false
	}
	b := key[0] >> px.shift
	for i := px.dir[b]; i < px.dir[b+1]; i++ {
		if px.ents[i].key == key {
			return &px.ents[i], true
		}
	}
	return nil, false
}

// loadPartIndex reads the key index files of a partition's data files.
// Files written before the index existed (no Keys in the manifest) are read
// row by row once and get an index file in this transaction (upgrade).
func loadPartIndex(tx *Tx, t Table, files []FileEntry) (*partIndex, error) {
	px := &partIndex{files: files}
	var total int64
	for _, f := range files {
		total += f.Rows
	}
	if total == 0 {
		return px, nil
	}
	if total >= 1<<32 {
		return nil, fmt.Errorf("partition of %s holds %d rows; compact or split it", t.Name, total)
	}
	nb := max(1, bits.Len64(uint64(total)/4))
	px.shift = uint(64 - nb)
	px.dir = make([]uint32, (1<<nb)+1)
	// Two passes over the files: count per bucket, then place.
	old := map[int][]keyEntry{}
	var buf []byte
	each := func(fn func(fi int, row uint32, e keyEntry)) error {
		for fi, f := range files {
			if f.Keys == "" {
				entries, ok := old[fi]
				if !ok {
					var err error
					if entries, err = t.ops.fileKeys(tx.l.root, t, f); err != nil {
						return err
					}
					if err := tx.addKeys(f, entries); err != nil {
						return err
					}
					old[fi] = entries
				}
				for r, e := range entries {
					fn(fi, uint32(r), e)
				}
				continue
			}
			var err error
			if buf, err = readKeysFile(tx.l.root, f, buf); err != nil {
				return fmt.Errorf("%w (run `trustlake lake check`)", err)
			}
			for r := int64(0); r < f.Rows; r++ {
				off := len(keysMagic) + int(r)*keyEntryBytes
				fn(fi, uint32(r), decodeKeyEntry(buf[off:off+keyEntryBytes]))
			}
		}
		return nil
	}
	px.filter = make([]uint64, 1<<nb)
	err := each(func(_ int, _ uint32, e keyEntry) {
		px.dir[(e.key[0]>>px.shift)+1]++
		px.filter[e.key[1]>>px.shift] |= filterBits(e.key[1])
	})
	if err != nil {
		return nil, err
	}
	for b := 1; b < len(px.dir); b++ {
		px.dir[b] += px.dir[b-1]
	}
	px.ents = make([]located, total)
	next := make([]uint32, len(px.dir)-1)
	copy(next, px.dir)
	err = each(func(fi int, row uint32, e keyEntry) {
		b := e.key[0] >> px.shift
		px.ents[next[b]] = located{keyEntry: e, file: uint32(fi), row: row}
		next[b]++
	})
	if err != nil {
		return nil, err
	}
	return px, nil
}
