package queries

import (
	"database/sql"
	"fmt"
)

// Records returns an iterator over rows as maps from column name to value
// (the shape ingest.Records reads); it reports false after the last row.
// An error of the rows themselves is prefixed with what (the reader's name).
func Records(rows *sql.Rows, what string) (func() (map[string]any, bool, error), error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return func() (map[string]any, bool, error) {
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return nil, false, fmt.Errorf("%s: %w", what, err)
			}
			return nil, false, nil
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, false, err
		}
		rec := make(map[string]any, len(cols))
		for i, c := range cols {
			rec[c] = vals[i]
		}
		return rec, true, nil
	}, nil
}
