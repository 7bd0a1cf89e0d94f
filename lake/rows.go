package lake

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// typedOps implements tableOps for the row type T.
type typedOps[T any] struct{}

// digest recomputes a data file's key index entries from its rows and,
// unless feed is nil, feeds it each batch of rows.
func (typedOps[T]) digest(root string, t Table, f FileEntry, feed func(rows any)) ([]keyindex.Entry, error) {
	out := make([]keyindex.Entry, 0, f.Rows)
	var scratch []byte
	err := readRows[T](root, t, f, func(rows []T) error {
		for i := range rows {
			var e keyindex.Entry
			p := unsafe.Pointer(&rows[i])
			e.Key, scratch = t.rows.keyHash(scratch, p)
			e.Content, scratch = t.rows.contentHash(scratch, p)
			out = append(out, e)
		}
		if feed != nil {
			feed(rows)
		}
		return nil
	})
	return out, err
}

// origins returns "file:line" of every row of a data file, in row order.
func (typedOps[T]) origins(root string, t Table, f FileEntry) ([]string, error) {
	out := make([]string, 0, f.Rows)
	err := readRows[T](root, t, f, func(rows []T) error {
		for i := range rows {
			out = append(out, origin(t.rows.where(unsafe.Pointer(&rows[i]))))
		}
		return nil
	})
	return out, err
}

// compact copies the rows of files (one partition) into new files rolled
// at Options.FileRows, and marks the old ones superseded.
func (typedOps[T]) compact(tx *Tx, t Table, files []FileEntry, st *CompactStats) error {
	var fw *fileWriter[T]
	var scratch []byte
	for _, f := range files {
		err := readRows[T](tx.l.root, t, f, func(rows []T) error {
			if fw != nil && fw.rows >= int64(tx.l.opts.FileRows) {
				if err := fw.close(); err != nil {
					return err
				}
				fw = nil
			}
			if fw == nil {
				var err error
				if fw, err = newFileWriter[T](tx, t, f.Partition, 0, 0, 0); err != nil {
					return err
				}
				st.FilesOut++
			}
			b := fw.batch(len(rows))
			for i := range rows {
				var key [2]uint64
				p := unsafe.Pointer(&rows[i])
				key, scratch = t.rows.keyHash(scratch, p)
				b.add(t.rows, &rows[i], key)
			}
			st.Rows += int64(len(rows))
			return fw.write(b)
		})
		if err != nil {
			return err
		}
		tx.remove(f.Path)
	}
	if fw != nil {
		return fw.close()
	}
	return nil
}

// readRows streams the rows of one committed file, with partition fields
// restored, in batches.
func readRows[T any](root string, t Table, f FileEntry, fn func([]T) error) error {
	return ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)), f.Path, func(rows []T) error {
		for i := range rows {
			t.rows.setPartition(unsafe.Pointer(&rows[i]), f.Partition)
		}
		return fn(rows)
	})
}

// ReadFile streams the rows of the Parquet file at name (rel in messages),
// read as rows of type T, in batches that fn must not keep; an error from
// fn stops it and is returned.
func ReadFile[T any](name, rel string, fn func([]T) error) error {
	fh, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	defer fh.Close()
	r := parquet.NewGenericReader[T](fh)
	defer r.Close()
	buf := make([]T, 1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if ferr := fn(buf[:n]); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
	}
}

// ReadTable streams every committed row of a table (Go-side readers such as
// tests; analytics go through DuckDB). T must be the table's row type.
func ReadTable[T any](l *Lake, table string, fn func([]T) error) error {
	return ReadPartitions(l, table, func([]string) bool { return true }, fn)
}

// ReadPartitions streams the committed rows of the partitions of a table
// that keep accepts (given the partition values), so a reader of one
// judge's verdicts does not scan every other judge's files.
func ReadPartitions[T any](l *Lake, table string, keep func(values []string) bool, fn func([]T) error) error {
	t, err := tableFor[T](table)
	if err != nil {
		return err
	}
	m, err := l.Manifest()
	if err != nil {
		return err
	}
	for _, f := range m.Files {
		if f.Table == table && keep(f.Partition) {
			if err := readRows[T](l.root, t, f, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
