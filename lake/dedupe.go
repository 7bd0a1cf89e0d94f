package lake

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Row is what every lake row type provides (see package schema).
type Row interface {
	Key() string            // natural key, for messages
	KeyHash() [2]uint64     // 128-bit hash of the natural key, for maps
	Hash() uint64           // content hash, excluding provenance
	Partition() []string    // hive partition values
	Where() (string, int64) // source file and line
}

// origin formats a source as "file:line" (or "file" when line is 0).
func origin(file string, line int64) string {
	if line <= 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// RowPtr constrains *T to be a Row whose partition fields can be restored
// from the hive path.
type RowPtr[T any] interface {
	*T
	Row
	SetPartition([]string)
}

// Outcome is what happened to one row given to Writer.Add.
type Outcome int

// Outcomes of Writer.Add.
const (
	Added     Outcome = iota // new key, written
	Unchanged                // same key and content already in the lake
	Replaced                 // same key, new content, --replace given
	Conflict                 // same key, different content; see ConflictError
)

// ConflictError says that a row's natural key is taken by a different row
// in the lake; Existing names where that row came from ("file:line").
type ConflictError struct {
	Key      string
	Existing string
}

func (e *ConflictError) Error() string {
	key := strings.ReplaceAll(e.Key, "\x00", "/")
	return fmt.Sprintf("key %s already in the lake with different content (from %s); use --replace to overwrite", key, e.Existing)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Stats counts the outcomes of a Writer.
type Stats struct {
	Added     int64 `json:"added"`
	Unchanged int64 `json:"unchanged"`
	Replaced  int64 `json:"replaced"`
	Rejected  int64 `json:"rejected"`
}

// WriterOptions configure a Writer.
type WriterOptions struct {
	Replace  bool // overwrite rows whose key exists with different content
	SizeHint int  // expected number of rows, to size the dedupe map; 0 is fine
}

// Writer appends rows of type T to one table inside a transaction, deduping
// by natural key against the lake and within the batch. It streams: rows go
// to Parquet as they arrive; memory grows with the number of keys, not rows.
type Writer[T any, P RowPtr[T]] struct {
	tx    *Tx
	table Table
	opts  WriterOptions
	parts map[string]*partState[T] // by partition values joined with NUL
	last  *partState[T]            // the partition of the previous row
	seen  []seenKey                // every key added, for in-batch duplicates (sorted in Close)
	files []string                 // source files by index, for seen
	stats Stats
	buf   int
}

type existingRow struct {
	hash    uint64
	srcFile string
	srcLine int64
	file    string // lake file holding the row
}

// seenKey is one added row's key and source; a sorted slice of them finds
// in-batch duplicates far cheaper than a map of a million keys.
type seenKey struct {
	key  [2]uint64
	line int64
	file int32
}

// DuplicateError is a row whose natural key an earlier row of the same
// batch already had.
type DuplicateError struct {
	File, FirstFile string
	Line, FirstLine int64
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("same natural key as %s", origin(e.FirstFile, e.FirstLine))
}

type partState[T any] struct {
	values   []string
	existing map[[2]uint64]existingRow
	replaced map[string]map[[2]uint64]bool // file -> keys to drop
	fw       *fileWriter[T]
	pending  []T
}

// NewWriter starts writing table in tx.
func NewWriter[T any, P RowPtr[T]](tx *Tx, table string, opts WriterOptions) (*Writer[T, P], error) {
	t, err := LookupTable(table)
	if err != nil {
		return nil, err
	}
	return &Writer[T, P]{tx: tx, table: t, opts: opts, seen: make([]seenKey, 0, opts.SizeHint), buf: 4096}, nil
}

// Add offers one row. It returns the outcome and, for Conflict and
// Duplicate, a *ConflictError. The caller validates rows before Add.
func (w *Writer[T, P]) Add(row *T) (Outcome, error) {
	p := P(row)
	key := p.KeyHash()
	ps, err := w.part(p.Partition())
	if err != nil {
		return Conflict, err
	}
	file, line := p.Where()
	if n := len(w.files); n == 0 || w.files[n-1] != file {
		w.files = append(w.files, file)
	}
	w.seen = append(w.seen, seenKey{key: key, line: line, file: int32(len(w.files) - 1)})
	if len(ps.existing) == 0 {
		w.stats.Added++
		return Added, w.push(ps, row)
	}
	if old, ok := ps.existing[key]; ok {
		if old.hash == p.Hash() {
			w.stats.Unchanged++
			return Unchanged, nil
		}
		if !w.opts.Replace {
			w.stats.Rejected++
			return Conflict, &ConflictError{Key: p.Key(), Existing: origin(old.srcFile, old.srcLine)}
		}
		if ps.replaced[old.file] == nil {
			ps.replaced[old.file] = map[[2]uint64]bool{}
		}
		ps.replaced[old.file][key] = true
		w.stats.Replaced++
		return Replaced, w.push(ps, row)
	}
	w.stats.Added++
	return Added, w.push(ps, row)
}

func (w *Writer[T, P]) push(ps *partState[T], row *T) error {
	ps.pending = append(ps.pending, *row)
	if len(ps.pending) >= w.buf {
		return w.flush(ps)
	}
	return nil
}

func (w *Writer[T, P]) flush(ps *partState[T]) error {
	if len(ps.pending) == 0 {
		return nil
	}
	if ps.fw != nil && ps.fw.rows >= int64(w.tx.l.opts.FileRows) {
		if err := ps.fw.close(); err != nil {
			return err
		}
		ps.fw = nil
	}
	if ps.fw == nil {
		fw, err := newFileWriter[T](w.tx, w.table, ps.values)
		if err != nil {
			return err
		}
		ps.fw = fw
	}
	if err := ps.fw.write(ps.pending); err != nil {
		return err
	}
	ps.pending = ps.fw.batch(w.buf)
	return nil
}

// part returns the state of one partition, loading its existing keys on
// first use.
// Rows of one partition usually come in runs, so the previous row's
// partition is tried first; the map costs one joined key otherwise.
func (w *Writer[T, P]) part(values []string) (*partState[T], error) {
	if w.last != nil && equalStrings(w.last.values, values) {
		return w.last, nil
	}
	id := strings.Join(values, "\x00")
	if ps, ok := w.parts[id]; ok {
		w.last = ps
		return ps, nil
	}
	if _, err := PartitionDir(w.table, values); err != nil {
		return nil, err
	}
	ps := &partState[T]{values: values, existing: map[[2]uint64]existingRow{}, replaced: map[string]map[[2]uint64]bool{}}
	for _, f := range w.tx.partitionFiles(w.table, values) {
		err := readRows[T, P](w.tx.l.root, f, func(rows []T) error {
			for i := range rows {
				p := P(&rows[i])
				file, line := p.Where()
				ps.existing[p.KeyHash()] = existingRow{hash: p.Hash(), srcFile: file, srcLine: line, file: f.Path}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if w.parts == nil {
		w.parts = map[string]*partState[T]{}
	}
	w.parts[id], w.last = ps, ps
	return ps, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Duplicates returns the rows whose natural key an earlier row of the batch
// already had, in the order they were added. Call it after Close.
func (w *Writer[T, P]) Duplicates() []*DuplicateError {
	s := w.seen
	slices.SortFunc(s, func(a, b seenKey) int {
		if c := cmp.Compare(a.key[0], b.key[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.key[1], b.key[1]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.file, b.file); c != 0 { // input order within a key
			return c
		}
		return cmp.Compare(a.line, b.line)
	})
	type dup struct {
		first, again seenKey
		order        int
	}
	var dups []dup
	for i := 1; i < len(s); i++ {
		if s[i].key == s[i-1].key {
			j := i - 1
			for j > 0 && s[j-1].key == s[i].key {
				j--
			}
			dups = append(dups, dup{first: s[j], again: s[i]})
		}
	}
	slices.SortFunc(dups, func(a, b dup) int {
		if c := cmp.Compare(a.again.file, b.again.file); c != 0 {
			return c
		}
		return cmp.Compare(a.again.line, b.again.line)
	})
	out := make([]*DuplicateError, len(dups))
	for i, d := range dups {
		out[i] = &DuplicateError{File: w.files[d.again.file], Line: d.again.line, FirstFile: w.files[d.first.file], FirstLine: d.first.line}
	}
	w.stats.Rejected += int64(len(out))
	return out
}

// Close flushes every partition, rewrites files that lost replaced rows,
// and returns the counts. The transaction still has to be committed, after
// checking Duplicates.
func (w *Writer[T, P]) Close() (Stats, error) {
	for _, id := range slices.Sorted(maps.Keys(w.parts)) { // manifest order stays stable
		ps := w.parts[id]
		if err := w.flush(ps); err != nil {
			return w.stats, err
		}
		for file, keys := range ps.replaced {
			if err := w.rewriteWithout(ps, file, keys); err != nil {
				return w.stats, err
			}
		}
		if ps.fw != nil {
			if err := ps.fw.close(); err != nil {
				return w.stats, err
			}
			ps.fw = nil
		}
	}
	return w.stats, nil
}

// rewriteWithout copies a committed file's rows, minus keys, into the
// partition's current output, and marks the old file superseded.
func (w *Writer[T, P]) rewriteWithout(ps *partState[T], file string, keys map[[2]uint64]bool) error {
	var entry FileEntry
	for _, f := range w.tx.base.Files {
		if f.Path == file {
			entry = f
		}
	}
	err := readRows[T, P](w.tx.l.root, entry, func(rows []T) error {
		for i := range rows {
			if !keys[P(&rows[i]).KeyHash()] {
				ps.pending = append(ps.pending, rows[i])
			}
		}
		return w.flush(ps)
	})
	if err != nil {
		return err
	}
	w.tx.remove(file)
	return nil
}

// readRows streams the rows of one committed file, with partition fields
// restored, in batches.
func readRows[T any, P RowPtr[T]](root string, f FileEntry, fn func([]T) error) error {
	name := filepath.Join(root, filepath.FromSlash(f.Path))
	fh, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	defer fh.Close()
	r := parquet.NewGenericReader[T](fh)
	defer r.Close()
	buf := make([]T, 1024)
	for {
		n, err := r.Read(buf)
		for i := 0; i < n; i++ {
			P(&buf[i]).SetPartition(f.Partition)
		}
		if n > 0 {
			if ferr := fn(buf[:n]); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
}

// ReadTable streams every committed row of a table (Go-side readers such as
// `lake check` and tests; analytics go through DuckDB).
func ReadTable[T any, P RowPtr[T]](l *Lake, table string, fn func([]T) error) error {
	m, err := l.Manifest()
	if err != nil {
		return err
	}
	for _, f := range m.Files {
		if f.Table == table {
			if err := readRows[T, P](l.root, f, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadPartitions streams the committed rows of the partitions of a table
// that keep accepts (given the partition values), so a reader of one
// judge's verdicts does not scan every other judge's files.
func ReadPartitions[T any, P RowPtr[T]](l *Lake, table string, keep func(values []string) bool, fn func([]T) error) error {
	m, err := l.Manifest()
	if err != nil {
		return err
	}
	for _, f := range m.Files {
		if f.Table == table && keep(f.Partition) {
			if err := readRows[T, P](l.root, f, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
