package lake

import (
	"fmt"
	"path/filepath"

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
	for _, f := range files {
		total += f.Rows
	}
	if total >= 1<<32 {
		return nil, fmt.Errorf("partition of %s holds %d rows; compact or split it", t.Name, total)
	}
	ents, maps := make([][]byte, len(files)), [][]byte(nil)
	release := func() {
		for _, m := range maps {
			keyindex.Unmap(m)
		}
	}
	for i, f := range files {
		if f.Keys != "" {
			m, err := keyindex.Map(filepath.Join(tx.l.root, filepath.FromSlash(f.Keys)), f.Keys, f.Rows)
			if m != nil {
				maps = append(maps, m)
			}
			if err != nil {
				release()
				return nil, fmt.Errorf("%w (run `trustlake lake check`)", err)
			}
			ents[i] = m[len(keyindex.Magic):]
			continue
		}
		entries, err := t.ops.fileKeys(tx.l.root, t, f)
		if err == nil && int64(len(entries)) != f.Rows {
			err = fmt.Errorf("%s: %d rows, manifest says %d (run `trustlake lake check`)", f.Path, len(entries), f.Rows)
		}
		if err == nil {
			err = tx.addKeys(f, entries)
		}
		if err != nil {
			release()
			return nil, err
		}
		ents[i] = make([]byte, keyindex.EntryBytes*len(entries))
		for r, e := range entries {
			keyindex.Put(ents[i][keyindex.EntryBytes*r:], e)
		}
	}
	return &partIndex{files: files, Index: keyindex.New(ents, maps)}, nil
}
