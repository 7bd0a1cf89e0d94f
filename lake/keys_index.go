package lake

import (
	"fmt"
	"unsafe"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// partIndex is the key index of one partition in memory (package
// keyindex), with the data files its entries belong to.
type partIndex struct {
	files []FileEntry
	*keyindex.Index
}

// loadPartIndex reads the key index files of a partition's data files.
// Files written before the index existed (no Keys in the manifest) are read
// row by row once and get an index file in this transaction (upgrade).
func loadPartIndex(tx *Tx, t Table, files []FileEntry) (*partIndex, error) {
	var total int64
	srcs := make([]keyindex.Source, len(files))
	for i, f := range files {
		total += f.Rows
		srcs[i] = keyindex.Source{Keys: f.Keys, Rows: f.Rows, Read: func() ([]keyindex.Entry, error) {
			entries, err := t.ops.digest(tx.l.root, t, f, nil)
			if err == nil && int64(len(entries)) != f.Rows {
				err = fmt.Errorf("%s: %d rows, manifest says %d (run `trustlake lake check`)", f.Path, len(entries), f.Rows)
			}
			if err == nil {
				err = tx.addKeys(f, entries)
			}
			return entries, err
		}}
	}
	if total >= 1<<32 {
		return nil, fmt.Errorf("partition of %s holds %d rows; compact or split it", t.Name, total)
	}
	x, err := keyindex.Load(tx.l.root, srcs)
	if err != nil {
		return nil, err
	}
	return &partIndex{files: files, Index: x}, nil
}

// DuplicateError is a row whose natural key an earlier row of the same
// batch already had.
type DuplicateError keyindex.Duplicate

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("same natural key as %s", origin(e.FirstFile, e.FirstLine))
}

// see records an added row's key and source for Duplicates.
func (w *Writer[T]) see(p unsafe.Pointer, key [2]uint64) error {
	file, line := w.rt.where(p)
	return w.keys.Add(key, file, line)
}

// Duplicates returns the rows whose natural key an earlier row of the batch
// already had, in the order they were added (package keyindex finds them).
// Call it after Close.
func (w *Writer[T]) Duplicates() []*DuplicateError {
	dups := w.keys.Duplicates()
	out := make([]*DuplicateError, len(dups))
	for i := range dups {
		out[i] = (*DuplicateError)(&dups[i])
	}
	w.stats.Rejected += int64(len(out))
	return out
}
