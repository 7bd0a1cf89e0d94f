package lake

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
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
	putKeyEntry(kw.buf[:], e)
	kw.bw.Write(kw.buf[:])
}

// putKeyEntry encodes e into the first 24 bytes of b.
func putKeyEntry(b []byte, e keyEntry) {
	binary.LittleEndian.PutUint64(b[0:], e.key[0])
	binary.LittleEndian.PutUint64(b[8:], e.key[1])
	binary.LittleEndian.PutUint64(b[16:], e.content)
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

// readKeysFile reads the entries of f's key index into dst (allocated
// when nil; else len(dst) must be 24 bytes a row), checking the magic and
// the length against the row count of the manifest.
func readKeysFile(root string, f FileEntry, dst []byte) error {
	name := filepath.Join(root, filepath.FromSlash(f.Keys))
	fh, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("read key index %s: %w", f.Keys, err)
	}
	defer fh.Close()
	want := int64(len(keysMagic)) + keyEntryBytes*f.Rows
	if dst == nil {
		dst = make([]byte, keyEntryBytes*f.Rows)
	}
	if st, err := fh.Stat(); err == nil && st.Size() != want {
		return fmt.Errorf("read key index %s: %d bytes, want %d for %d rows", f.Keys, st.Size(), want, f.Rows)
	}
	var magic [len(keysMagic)]byte
	if n, err := fh.ReadAt(magic[:], 0); n != len(magic) {
		return fmt.Errorf("read key index %s: %d bytes, want %d for %d rows: %v", f.Keys, n, want, f.Rows, err)
	}
	if string(magic[:]) != keysMagic {
		return fmt.Errorf("read key index %s: %w", f.Keys, errBadKeys)
	}
	if n, err := fh.ReadAt(dst, int64(len(keysMagic))); n != len(dst) {
		return fmt.Errorf("read key index %s: %d bytes, want %d for %d rows: %v", f.Keys, n+len(keysMagic), want, f.Rows, err)
	}
	return nil
}

// mapKeysFile maps f's key index read-only, checking its length against
// the row count of the manifest and its magic. A mapping it returns with
// an error is the caller's to unmap.
func mapKeysFile(root string, f FileEntry) ([]byte, error) {
	fh, err := os.Open(filepath.Join(root, filepath.FromSlash(f.Keys)))
	if err != nil {
		return nil, fmt.Errorf("read key index %s: %w", f.Keys, err)
	}
	defer fh.Close()
	want := int64(len(keysMagic)) + keyEntryBytes*f.Rows
	if st, err := fh.Stat(); err != nil || st.Size() != want {
		if err == nil {
			err = fmt.Errorf("%d bytes, want %d for %d rows", st.Size(), want, f.Rows)
		}
		return nil, fmt.Errorf("read key index %s: %w", f.Keys, err)
	}
	m, err := syscall.Mmap(int(fh.Fd()), 0, int(want), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map key index %s: %w", f.Keys, err)
	}
	if string(m[:len(keysMagic)]) != keysMagic {
		return m, fmt.Errorf("read key index %s: %w", f.Keys, errBadKeys)
	}
	return m, nil
}

var errBadKeys = errors.New("not a key index file (or another format)")

func decodeKeyEntry(b []byte) keyEntry {
	return keyEntry{
		key:     [2]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])},
		content: binary.LittleEndian.Uint64(b[16:]),
	}
}
