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
	return derivedRows[schema.Trust](ctx, dst, lake.Trust, rows, opts)
}

// SelfTests writes verifier self-test results (`trustlake tasks check
// --record`) into the selftests table as one atomic batch; like audit rows
// they are derived data: a changed result for the same verifier and fixture
// replaces the old one, an unchanged one is a no-op.
func SelfTests(ctx context.Context, dst *lake.Lake, rows []schema.SelfTest, opts Options) (Stats, error) {
	for i := range rows {
		if err := rows[i].Validate(); err != nil {
			return Stats{}, err
		}
	}
	return derivedRows[schema.SelfTest](ctx, dst, lake.SelfTests, rows, opts)
}

// derivedRows writes rows computed by trustlake itself (not read from
// input files) with replace semantics.
func derivedRows[T any](ctx context.Context, dst *lake.Lake, table string, rows []T, opts Options) (Stats, error) {
	if len(rows) == 0 {
		return Stats{Tables: map[string]lake.Stats{}}, nil
	}
	opts.Replace = true
	return inBatch(ctx, dst, opts, func(b *batch) error {
		b.sizeHint = len(rows)
		for i := range rows {
			if err := add(b, table, &rows[i], "", 0); err != nil {
				return err
			}
			if i%65536 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
