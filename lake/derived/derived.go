// Package derived writes the tables that trustlake computes itself (Trust
// Layer audits, verifier self-tests, reviews) through lake's Writer: it
// imports lake, never the other way round.
package derived

import (
	"context"
	"fmt"

	"github.com/trustlake/trustlake/lake"
)

// Write writes rows that trustlake computes itself (Trust Layer
// audits, verifier self-tests) into table as one atomic commit. Derived
// data replaces: a row whose key is stored with different content replaces
// it, an unchanged row is a no-op, rows of other keys are kept. The caller
// validates the rows; their keys must be unique. T must be the table's row
// type.
func Write[T any](ctx context.Context, l *lake.Lake, table string, rows []T) (lake.Stats, error) {
	if len(rows) == 0 {
		return lake.Stats{}, nil
	}
	tx, err := l.Begin(ctx)
	if err != nil {
		return lake.Stats{}, err
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[T](tx, table, lake.WriterOptions{Replace: true, SizeHint: len(rows)})
	if err != nil {
		return lake.Stats{}, err
	}
	for i := range rows {
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return lake.Stats{}, err
			}
		}
		if _, err := w.Add(&rows[i]); err != nil {
			return lake.Stats{}, fmt.Errorf("write %s: %w", table, err)
		}
	}
	st, err := w.Close()
	if err != nil {
		return st, err
	}
	if d := w.Duplicates(); len(d) > 0 {
		return st, fmt.Errorf("write %s: %d row(s) repeat a key of an earlier row (%v)", table, len(d), d[0])
	}
	return st, tx.Commit()
}
