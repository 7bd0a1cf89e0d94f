package keyindex

import (
	"fmt"
	"path/filepath"
)

// Source is one data file whose rows an Index holds: Keys is its index
// file, relative to root (empty when it has none yet: then Read gives the
// entries, read from the data file itself), Rows its row count.
type Source struct {
	Keys string
	Rows int64
	Read func() ([]Entry, error)
}

// Load indexes the rows of srcs, in order: index files are mapped (no
// copy), the others read. The caller releases the Index.
func Load(root string, srcs []Source) (*Index, error) {
	ents, maps := make([][]byte, len(srcs)), [][]byte(nil)
	release := func() {
		for _, m := range maps {
			Unmap(m)
		}
	}
	for i, s := range srcs {
		if s.Keys != "" {
			m, err := Map(filepath.Join(root, filepath.FromSlash(s.Keys)), s.Keys, s.Rows)
			if m != nil {
				maps = append(maps, m)
			}
			if err != nil {
				release()
				return nil, fmt.Errorf("%w (run `trustlake lake check`)", err)
			}
			ents[i] = m[len(Magic):]
			continue
		}
		entries, err := s.Read()
		if err != nil {
			release()
			return nil, err
		}
		ents[i] = make([]byte, EntryBytes*len(entries))
		for r, e := range entries {
			Put(ents[i][EntryBytes*r:], e)
		}
	}
	return New(ents, maps), nil
}
