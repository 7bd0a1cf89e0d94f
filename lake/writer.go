package lake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Tx is one write transaction: it holds the lake's lock from Begin until
// Commit or Rollback. Nothing it writes is visible before Commit. A Tx is
// not safe for concurrent use.
type Tx struct {
	l       *Lake
	lock    *writeLock
	base    Manifest
	added   []FileEntry
	staged  []stagedFile
	removed map[string]bool
	abort   []func() // stop encoding goroutines of files still open
	done    bool
}

type stagedFile struct{ tmp, final string }

// Begin starts a write transaction, waiting up to Options.LockTimeout for
// the lock (then ErrLocked). It removes files left by a crashed writer.
func (l *Lake) Begin(ctx context.Context) (*Tx, error) {
	lk, err := l.lock(ctx)
	if err != nil {
		return nil, err
	}
	m, err := l.Manifest()
	if err != nil {
		lk.release()
		return nil, err
	}
	tx := &Tx{l: l, lock: lk, base: m, removed: map[string]bool{}}
	if err := tx.cleanOrphans(); err != nil {
		lk.release()
		return nil, err
	}
	return tx, nil
}

// Manifest returns the state the transaction started from.
func (tx *Tx) Manifest() Manifest { return tx.base }

// cleanOrphans deletes data files not in the manifest (left by a crashed
// writer; safe because we hold the lock) and tombstones past their grace.
func (tx *Tx) cleanOrphans() error {
	live := map[string]bool{}
	for _, f := range tx.base.Files {
		live[f.Path] = true
	}
	var keep []Tombstone
	for _, t := range tx.base.Tombstones {
		if time.Since(t.Removed) < tx.l.opts.TombstoneGrace {
			live[t.Path] = true
			keep = append(keep, t)
		}
	}
	tx.base.Tombstones = keep
	orphans, err := tx.l.orphans(live)
	if err != nil {
		return err
	}
	for _, o := range orphans {
		tx.l.opts.Logger.Info("remove orphan file", "path", o)
		if err := os.Remove(filepath.Join(tx.l.root, filepath.FromSlash(o))); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove orphan %s: %w", o, err)
		}
	}
	return nil
}

// orphans lists files under table folders that are not in live.
func (l *Lake) orphans(live map[string]bool) ([]string, error) {
	var out []string
	for _, t := range Tables() {
		dir := filepath.Join(l.root, t.Name)
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(l.root, p)
			rel = filepath.ToSlash(rel)
			if !live[rel] {
				out = append(out, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", dir, err)
		}
	}
	return out, nil
}

// Commit makes every file written in the transaction visible at once and
// releases the lock. After Commit, Rollback does nothing.
func (tx *Tx) Commit() error {
	if tx.done {
		return fmt.Errorf("commit: transaction already finished")
	}
	dirs := map[string]bool{}
	for _, s := range tx.staged {
		if err := os.Rename(s.tmp, s.final); err != nil {
			return fmt.Errorf("rename %s: %w", s.tmp, err)
		}
		dirs[filepath.Dir(s.final)] = true
	}
	for d := range dirs {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	if len(tx.added) == 0 && len(tx.removed) == 0 {
		tx.finish()
		return nil
	}
	m := tx.base
	m.Version++
	m.Updated = time.Now().UTC()
	files := make([]FileEntry, 0, len(m.Files)+len(tx.added))
	for _, f := range m.Files {
		if tx.removed[f.Path] {
			m.Tombstones = append(m.Tombstones, Tombstone{Path: f.Path, Removed: m.Updated})
			continue
		}
		files = append(files, f)
	}
	m.Files = append(files, tx.added...)
	if err := tx.l.writeManifest(m); err != nil {
		return err
	}
	tx.finish()
	return nil
}

// Rollback discards everything written in the transaction and releases the
// lock. It is safe to call after Commit (it then does nothing).
func (tx *Tx) Rollback() {
	if tx.done {
		return
	}
	for _, stop := range tx.abort {
		stop()
	}
	for _, s := range tx.staged {
		os.Remove(s.tmp)
		os.Remove(s.final)
	}
	tx.finish()
}

func (tx *Tx) finish() {
	tx.done = true
	tx.lock.release()
}

// remove marks a committed file as superseded by this transaction.
func (tx *Tx) remove(rel string) { tx.removed[rel] = true }

// fileWriter writes one Parquet data file of row type T.
type fileWriter[T any] struct {
	tx     *Tx
	table  Table
	values []string
	rel    string // final path relative to root
	f      *os.File
	h      hashWriter
	w      *parquet.GenericWriter[T]
	rows   int64
	ch     chan []T   // row batches for the encoding goroutine
	free   chan []T   // batches the encoder is done with, for reuse
	done   chan error // the encoding goroutine's result
	closed bool
}

type hashWriter struct {
	w io.Writer
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
	n int64
}

func (hw *hashWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	hw.h.Write(p[:n])
	hw.n += int64(n)
	return n, err
}

func newFileWriter[T any](tx *Tx, t Table, values []string) (*fileWriter[T], error) {
	dir, err := PartitionDir(t, values)
	if err != nil {
		return nil, err
	}
	abs := filepath.Join(tx.l.root, filepath.FromSlash(dir))
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create partition %s: %w", dir, err)
	}
	rel := path.Join(dir, "part-"+uuid.NewString()+".parquet")
	final := filepath.Join(tx.l.root, filepath.FromSlash(rel))
	f, err := os.OpenFile(final+".tmp", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create data file: %w", err)
	}
	tx.staged = append(tx.staged, stagedFile{tmp: final + ".tmp", final: final})
	fw := &fileWriter[T]{tx: tx, table: t, values: values, rel: rel, f: f}
	fw.h = hashWriter{w: f, h: sha256.New()}
	fw.w = parquet.NewGenericWriter[T](&fw.h,
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.MaxRowsPerRowGroup(int64(tx.l.opts.RowGroupRows)),
		parquet.CreatedBy("trustlake", "1", ""),
	)
	fw.ch, fw.free, fw.done = make(chan []T, 2), make(chan []T, 4), make(chan error, 1)
	go fw.encode()
	tx.abort = append(tx.abort, func() {
		if !fw.closed {
			fw.closed = true
			close(fw.ch)
			<-fw.done
			fw.f.Close()
		}
	})
	return fw, nil
}

// encode runs in its own goroutine: Parquet encoding and compression of
// one file overlap with decoding and dedupe of the next rows.
func (fw *fileWriter[T]) encode() {
	var err error
	for rows := range fw.ch {
		if err == nil {
			if _, werr := fw.w.Write(rows); werr != nil {
				err = fmt.Errorf("write %s: %w", fw.rel, werr)
			}
		}
		// The writer has copied the values: hand the batch back for reuse
		// (cleared, so it pins no strings), or drop it when enough wait.
		clear(rows)
		select {
		case fw.free <- rows[:0]:
		default:
		}
	}
	if err == nil {
		if cerr := fw.w.Close(); cerr != nil {
			err = fmt.Errorf("finish %s: %w", fw.rel, cerr)
		}
	}
	fw.done <- err
}

// write hands rows to the encoding goroutine; the caller must not touch
// the slice again (it may come back from batch).
func (fw *fileWriter[T]) write(rows []T) error {
	fw.ch <- rows
	fw.rows += int64(len(rows))
	return nil
}

// close finishes the file, fsyncs it and records it in the transaction.
func (fw *fileWriter[T]) close() error {
	fw.closed = true
	close(fw.ch)
	if err := <-fw.done; err != nil {
		fw.f.Close()
		return err
	}
	if err := fw.f.Sync(); err != nil {
		fw.f.Close()
		return fmt.Errorf("sync %s: %w", fw.rel, err)
	}
	if err := fw.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", fw.rel, err)
	}
	fw.tx.added = append(fw.tx.added, FileEntry{
		Table:     fw.table.Name,
		Path:      fw.rel,
		Partition: fw.values,
		Rows:      fw.rows,
		Bytes:     fw.h.n,
		SHA256:    hex.EncodeToString(fw.h.h.Sum(nil)),
		Committed: time.Now().UTC(),
	})
	return nil
}

// partitionFiles returns the committed files of one partition of a table.
func (tx *Tx) partitionFiles(t Table, values []string) []FileEntry {
	want := strings.Join(values, "\x00")
	var out []FileEntry
	for _, f := range tx.base.Files {
		if f.Table == t.Name && strings.Join(f.Partition, "\x00") == want && !tx.removed[f.Path] {
			out = append(out, f)
		}
	}
	return out
}

// batch returns an empty slice for the next rows, reusing one the encoder
// is done with when there is one.
func (fw *fileWriter[T]) batch(capacity int) []T {
	select {
	case b := <-fw.free:
		return b
	default:
		return make([]T, 0, capacity)
	}
}
