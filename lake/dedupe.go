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
	Key() string
	Hash() uint64
	Partition() []string
	Origin() string
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
	Replace bool // overwrite rows whose key exists with different content
}

// Writer appends rows of type T to one table inside a transaction, deduping
// by natural key against the lake and within the batch. It streams: rows go
// to Parquet as they arrive; memory grows with the number of keys, not rows.
type Writer[T any, P RowPtr[T]] struct {
	tx    *Tx
	table Table
	opts  WriterOptions
	parts map[string]*partState[T]
	batch map[string]batchEntry
	stats Stats
	buf   int
}

type existingRow struct {
	hash uint64
	src  string
	file string
}

type batchEntry struct {
	hash uint64
	src  string
}

type partState[T any] struct {
	values   []string
	existing map[string]existingRow
	replaced map[string]map[string]bool // file -> keys to drop
	fw       *fileWriter[T]
	pending  []T
}

// NewWriter starts writing table in tx.
func NewWriter[T any, P RowPtr[T]](tx *Tx, table string, opts WriterOptions) (*Writer[T, P], error) {
	t, err := LookupTable(table)
	if err != nil {
		return nil, err
	}
	return &Writer[T, P]{tx: tx, table: t, opts: opts, parts: map[string]*partState[T]{}, batch: map[string]batchEntry{}, buf: 4096}, nil
}

// Add offers one row. It returns the outcome and, for Conflict and
// Duplicate, a *ConflictError. The caller validates rows before Add.
func (w *Writer[T, P]) Add(row *T) (Outcome, error) {
	p := P(row)
	key, hash := p.Key(), p.Hash()
	if prev, ok := w.batch[key]; ok {
		w.stats.Rejected++
		return Duplicate, &ConflictError{Key: key, Existing: prev.src, InBatch: true}
	}
	ps, err := w.part(p.Partition())
	if err != nil {
		return Conflict, err
	}
	w.batch[key] = batchEntry{hash: hash, src: p.Origin()}
	if old, ok := ps.existing[key]; ok {
		if old.hash == hash {
			w.stats.Unchanged++
			return Unchanged, nil
		}
		if !w.opts.Replace {
			w.stats.Rejected++
			return Conflict, &ConflictError{Key: key, Existing: old.src}
		}
		if ps.replaced[old.file] == nil {
			ps.replaced[old.file] = map[string]bool{}
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
	clear(ps.pending)
	ps.pending = ps.pending[:0]
	return nil
}

// part returns the state of one partition, loading its existing keys on
// first use.
func (w *Writer[T, P]) part(values []string) (*partState[T], error) {
	id := strings.Join(values, "\x00")
	if ps, ok := w.parts[id]; ok {
		return ps, nil
	}
	if _, err := PartitionDir(w.table, values); err != nil {
		return nil, err
	}
	ps := &partState[T]{values: values, existing: map[string]existingRow{}, replaced: map[string]map[string]bool{}}
	for _, f := range w.tx.partitionFiles(w.table, values) {
		err := readRows[T, P](w.tx.l.root, f, func(rows []T) error {
			for i := range rows {
				p := P(&rows[i])
				ps.existing[p.Key()] = existingRow{hash: p.Hash(), src: p.Origin(), file: f.Path}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	w.parts[id] = ps
	return ps, nil
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
func (w *Writer[T, P]) rewriteWithout(ps *partState[T], file string, keys map[string]bool) error {
	var entry FileEntry
	for _, f := range w.tx.base.Files {
		if f.Path == file {
			entry = f
		}
	}
	err := readRows[T, P](w.tx.l.root, entry, func(rows []T) error {
		for i := range rows {
			if !keys[P(&rows[i]).Key()] {
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
