package lake

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	Duplicate                // key already given earlier in this batch
)

// ConflictError says that a row's natural key is taken by a different row;
// Existing names where that row came from ("file:line").
type ConflictError struct {
	Key      string
	Existing string
	InBatch  bool // the other row is earlier in the same batch
}

func (e *ConflictError) Error() string {
	key := strings.ReplaceAll(e.Key, "\x00", "/")
	if e.InBatch {
		return fmt.Sprintf("%s was already given at %s", key, e.Existing)
	}
	return fmt.Sprintf("key %s already in the lake with different content (from %s); use --replace to overwrite", key, e.Existing)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Stats counts the outcomes of a Writer.
type Stats struct {
	Added, Unchanged, Replaced, Rejected int64
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
	parts []*partState[T]
	batch map[[2]uint64]batchEntry
	stats Stats
	buf   int
}

type existingRow struct {
	hash    uint64
	srcFile string
	srcLine int64
	file    string // lake file holding the row
}

type batchEntry struct {
	srcFile string
	srcLine int64
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
	return &Writer[T, P]{tx: tx, table: t, opts: opts, batch: make(map[[2]uint64]batchEntry, opts.SizeHint), buf: 4096}, nil
}

// Add offers one row. It returns the outcome and, for Conflict and
// Duplicate, a *ConflictError. The caller validates rows before Add.
func (w *Writer[T, P]) Add(row *T) (Outcome, error) {
	p := P(row)
	key := p.KeyHash()
	if prev, ok := w.batch[key]; ok {
		w.stats.Rejected++
		return Duplicate, &ConflictError{Key: p.Key(), Existing: origin(prev.srcFile, prev.srcLine), InBatch: true}
	}
	ps, err := w.part(p.Partition())
	if err != nil {
		return Conflict, err
	}
	file, line := p.Where()
	w.batch[key] = batchEntry{srcFile: file, srcLine: line}
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
	ps.pending = make([]T, 0, w.buf)
	return nil
}

// part returns the state of one partition, loading its existing keys on
// first use.
func (w *Writer[T, P]) part(values []string) (*partState[T], error) {
	for _, ps := range w.parts {
		if equalStrings(ps.values, values) {
			return ps, nil
		}
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
	w.parts = append(w.parts, ps)
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

// Close flushes every partition, rewrites files that lost replaced rows,
// and returns the counts. The transaction still has to be committed.
func (w *Writer[T, P]) Close() (Stats, error) {
	for _, ps := range w.parts {
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
