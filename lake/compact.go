package lake

import (
	"context"
	"fmt"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// CompactStats says what Compact did.
type CompactStats struct {
	Partitions int   `json:"partitions"` // partitions rewritten
	FilesIn    int   `json:"files_in"`   // files replaced
	FilesOut   int   `json:"files_out"`  // files written
	Rows       int64 `json:"rows"`       // rows copied
}

// Compact rewrites every partition of table that holds more than one data
// file into a single file (rolled at Options.FileRows), in one transaction:
// readers see the old files or the new ones, never both. Rows are copied
// as they are; nothing is deduped or dropped. Nightly ingests leave one
// file per partition and batch, which Compact folds back.
func Compact[T any, P RowPtr[T]](ctx context.Context, l *Lake, table string) (CompactStats, error) {
	t, err := LookupTable(table)
	if err != nil {
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
			continue
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		var fw *fileWriter[T]
		for _, f := range files {
			err := readRows[T, P](l.root, f, func(rows []T) error {
				if fw != nil && fw.rows >= int64(l.opts.FileRows) {
					if err := fw.close(); err != nil {
						return err
					}
					fw = nil
				}
				if fw == nil {
					var err error
					if fw, err = newFileWriter[T](tx, t, f.Partition); err != nil {
						return err
					}
					st.FilesOut++
				}
				batch := make([]T, len(rows))
				copy(batch, rows)
				st.Rows += int64(len(rows))
				return fw.write(batch)
			})
			if err != nil {
				return st, err
			}
			tx.remove(f.Path)
		}
		if fw != nil {
			if err := fw.close(); err != nil {
				return st, err
			}
		}
		st.Partitions++
		st.FilesIn += len(files)
	}
	return st, tx.Commit()
}

// CompactTable runs Compact with the row type of the named table.
func CompactTable(ctx context.Context, l *Lake, table string) (CompactStats, error) {
	switch table {
	case Episodes:
		return Compact[schema.Episode](ctx, l, table)
	case Actions:
		return Compact[schema.Action](ctx, l, table)
	case GroundTruth:
		return Compact[schema.GroundTruth](ctx, l, table)
	case Labels:
		return Compact[schema.Label](ctx, l, table)
	case Verdicts:
		return Compact[schema.Verdict](ctx, l, table)
	case Results:
		return Compact[schema.Result](ctx, l, table)
	case Trust:
		return Compact[schema.Trust](ctx, l, table)
	case SelfTests:
		return Compact[schema.SelfTest](ctx, l, table)
	case Evidence:
		return Compact[schema.Evidence](ctx, l, table)
	}
	return CompactStats{}, fmt.Errorf("%w: %q", ErrNoTable, table)
}
