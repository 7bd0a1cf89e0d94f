package lake

import (
	"fmt"

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
