package lake

import (
	"context"
	"strings"
)

// CompactStats says what Compact did.
type CompactStats struct {
	Partitions int   `json:"partitions"`        // partitions rewritten
	FilesIn    int   `json:"files_in"`          // files replaced
	FilesOut   int   `json:"files_out"`         // files written
	Rows       int64 `json:"rows"`              // rows copied
	Counted    int   `json:"counted,omitempty"` // data files given the companion they lacked (run_counts)
}

// Compact rewrites every partition of table that holds more than one data
// file into a single file (rolled at Options.FileRows), in one transaction:
// readers see the old files or the new ones, never both. Rows are copied
// as they are; nothing is deduped or dropped. Nightly ingests leave one
// file per partition and batch, which Compact folds back. A derived table
// is compacted with its source: companions (run_counts) are rewritten with
// the data files they derive from, and data files written before their
// companion table get theirs (an upgrade that reads their rows once).
func Compact(ctx context.Context, l *Lake, table string) (CompactStats, error) {
	t, err := LookupTable(table)
	if err != nil {
		return CompactStats{}, err
	}
	if t.Derived {
		return CompactStats{}, nil
	}
	if _, err := l.companionFor(t); err != nil {
		return CompactStats{}, err
	}
	tx, err := l.Begin(ctx)
	if err != nil {
		return CompactStats{}, err
	}
	defer tx.Rollback()
	groups := map[string][]FileEntry{}
	var order []string
	for _, f := range tx.base.Files {
		if f.Table != table {
			continue
		}
		id := strings.Join(f.Partition, "\x00")
		if _, ok := groups[id]; !ok {
			order = append(order, id)
		}
		groups[id] = append(groups[id], f)
	}
	var st CompactStats
	for _, id := range order {
		files := groups[id]
		if len(files) < 2 {
			n, err := tx.addMissingCompanions(t, files)
			if err != nil {
				return st, err
			}
			st.Counted += n
			continue
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if err := t.ops.compact(tx, t, files, &st); err != nil {
			return st, err
		}
		st.Partitions++
		st.FilesIn += len(files)
	}
	return st, tx.Commit()
}
