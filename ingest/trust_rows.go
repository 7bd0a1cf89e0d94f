package ingest

import (
	"context"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// TrustRows writes Trust Layer audit rows into the trust table as one
// atomic batch. The audit is derived data, so a row whose result_id is
// already audited with different content replaces it whatever
// opts.Replace says; an unchanged row is a no-op. Rows of other results
// are kept. The rows must have unique result ids (trust.Audit gives them).
func TrustRows(ctx context.Context, dst *lake.Lake, rows []schema.Trust, opts Options) (Stats, error) {
	opts.Replace = true
	b, err := begin(ctx, dst, opts)
	if err != nil {
		return Stats{}, err
	}
	defer b.tx.Rollback()
	b.sizeHint = len(rows)
	var w *lake.Writer[schema.Trust, *schema.Trust]
	for i := range rows {
		r := &rows[i]
		if err := add(b, &w, lake.Trust, r, r.SrcFile, r.SrcLine); err != nil {
			return b.stats, err
		}
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return b.stats, err
			}
		}
	}
	if len(rows) == 0 {
		return b.stats, nil
	}
	return b.finish()
}
