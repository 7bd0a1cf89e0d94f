// Package keyindex reads and writes the lake's key index files and looks
// keys up in them. Every data file has one, in _keys/, holding, in the
// data file's row order, each row's 128-bit natural-key hash and 64-bit
// content hash (24 bytes a row after an 8-byte magic). A writer that
// appends to a partition reads only these files, never the rows, so an
// append costs in proportion to what is appended plus 24 bytes per stored
// row of the partitions it touches, not a decode of the partition.
//
// It also finds the rows of a batch that repeat a key (Batch), in memory
// or through sorted runs on disk (Spill).
//
// The package knows files and hashes, not tables: package lake computes
// the hashes, names the files and records them in its manifest.
package keyindex

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"strings"
	"syscall"
)

const (
	// Dir is the folder of the key index files under the lake root.
	Dir = "_keys"
	// Magic starts every file: format 1, xxh3 key and content hashes.
	Magic = "TLKEYS\x00\x01"
	// EntryBytes is the size of one entry.
	EntryBytes = 24
)

// ErrBadFile means a file does not start with Magic.
var ErrBadFile = errors.New("not a key index file (or another format)")

// Entry is one row of a key index file.
type Entry struct {
	Key     [2]uint64 // natural key hash
	Content uint64    // content hash
}

// Path returns the key index file of a data file, both relative to the
// lake root.
func Path(dataRel string) string {
	return path.Join(Dir, strings.TrimSuffix(path.Base(dataRel), ".parquet")+".keys")
}

// Put encodes e into the first EntryBytes bytes of b.
func Put(b []byte, e Entry) {
	binary.LittleEndian.PutUint64(b[0:], e.Key[0])
	binary.LittleEndian.PutUint64(b[8:], e.Key[1])
	binary.LittleEndian.PutUint64(b[16:], e.Content)
}

// Decode decodes the entry at the start of b.
func Decode(b []byte) Entry {
	return Entry{
		Key:     [2]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])},
		Content: binary.LittleEndian.Uint64(b[16:]),
	}
}

// Writer streams a key index file, hashing it as it goes. Not safe for
// concurrent use.
type Writer struct {
	f  *os.File
	hw HashWriter
	bw *bufio.Writer
}

// Create starts a new key index file at name (which must not exist).
func Create(name string) (*Writer, error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create key index: %w", err)
	}
	w := &Writer{f: f, hw: HashWriter{W: f, H: sha256.New()}}
	w.bw = bufio.NewWriterSize(&w.hw, 256<<10)
	w.bw.WriteString(Magic)
	return w, nil
}

// HashWriter writes to W, hashing the bytes written with H and counting
// them in N.
type HashWriter struct {
	W io.Writer
	H hash.Hash
	N int64
}

func (hw *HashWriter) Write(p []byte) (int, error) {
	n, err := hw.W.Write(p)
	hw.H.Write(p[:n])
	hw.N += int64(n)
	return n, err
}

// Add appends one entry.
func (w *Writer) Add(e Entry) {
	var b [EntryBytes]byte
	Put(b[:], e)
	w.bw.Write(b[:])
}

// Write appends entries already encoded with Put, EntryBytes each; errors
// surface at Finish.
func (w *Writer) Write(entries []byte) {
	w.bw.Write(entries)
}

// Finish flushes, fsyncs and closes the file; it returns its size and
// sha256.
func (w *Writer) Finish() (int64, []byte, error) {
	err := w.bw.Flush()
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return w.hw.N, w.hw.H.Sum(nil), err
}

// Abandon closes the file without finishing it (a rolled-back write; the
// caller removes it).
func (w *Writer) Abandon() { w.f.Close() }

// WriteFile writes a whole key index file.
func WriteFile(name string, entries []Entry) (int64, []byte, error) {
	w, err := Create(name)
	if err != nil {
		return 0, nil, err
	}
	for _, e := range entries {
		w.Add(e)
	}
	return w.Finish()
}

// Check checks the bytes of a key index file against its data file's row
// count: the length and the magic. rel names the file in errors.
func Check(b []byte, rel string, rows int64) error {
	if want := int64(len(Magic)) + EntryBytes*rows; int64(len(b)) != want {
		return fmt.Errorf("read key index %s: %d bytes, want %d for %d rows", rel, len(b), want, rows)
	}
	if string(b[:len(Magic)]) != Magic {
		return fmt.Errorf("read key index %s: %w", rel, ErrBadFile)
	}
	return nil
}

// Map maps the key index file name read-only, checking its length against
// rows and its magic; the entries start at len(Magic). A mapping it
// returns with an error is the caller's to Unmap. rel names the file in
// errors.
func Map(name, rel string, rows int64) ([]byte, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read key index %s: %w", rel, err)
	}
	defer fh.Close()
	want := int64(len(Magic)) + EntryBytes*rows
	if st, err := fh.Stat(); err != nil || st.Size() != want {
		if err == nil {
			err = fmt.Errorf("%d bytes, want %d for %d rows", st.Size(), want, rows)
		}
		return nil, fmt.Errorf("read key index %s: %w", rel, err)
	}
	m, err := syscall.Mmap(int(fh.Fd()), 0, int(want), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map key index %s: %w", rel, err)
	}
	return m, Check(m, rel, rows)
}

// Unmap releases a mapping Map returned.
func Unmap(m []byte) { syscall.Munmap(m) }
