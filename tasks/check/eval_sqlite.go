package check

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver "sqlite"
)

// sqliteTimeout bounds one query.
const sqliteTimeout = 10 * time.Second

// maxRows bounds the rows a query may return.
const maxRows = 1000

// evalSQLite copies the database (with its -wal/-journal companions) to a
// private temporary folder, opens it query-only and runs Query. Equals is a
// list of rows (each a list) to compare the whole result, or a scalar to
// compare a one-row, one-column result.
func evalSQLite(ctx context.Context, s *Spec, final *os.Root) (bool, any, error) {
	tmp, err := os.MkdirTemp("", "trustlake-sqlite-")
	if err != nil {
		return false, nil, fmt.Errorf("create temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	base := path.Base(s.Path)
	for _, suffix := range []string{"", "-wal", "-journal"} {
		data, err := readFile(final, s.Path+suffix)
		if errors.Is(err, fs.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil {
			return false, nil, shortErr(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, base+suffix), data, 0o600); err != nil {
			return false, nil, fmt.Errorf("copy database: %w", err)
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(tmp, base))
	if err != nil {
		return false, nil, fmt.Errorf("open database: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(ctx, sqliteTimeout)
	defer cancel()
	if _, err := db.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
		return false, nil, fmt.Errorf("open database: %w", err)
	}
	rows, err := queryRows(ctx, db, s.Query)
	if err != nil {
		return false, nil, err
	}
	if want, ok := normalize(s.Equals).([]any); ok && allLists(want) {
		got := make([]any, len(rows))
		for i, r := range rows {
			got[i] = r
		}
		return equal(got, want, s.Tolerance), got, nil
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		return false, rows, fmt.Errorf("query returned %d rows; a scalar equals needs exactly one row of one column", len(rows))
	}
	return equal(rows[0][0], s.Equals, s.Tolerance), rows[0][0], nil
}

func allLists(v []any) bool {
	for _, e := range v {
		if _, ok := e.([]any); !ok {
			return false
		}
	}
	return true
}

func queryRows(ctx context.Context, db *sql.DB, q string) ([][]any, error) {
	rs, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	var out [][]any
	for rs.Next() {
		if len(out) >= maxRows {
			return nil, fmt.Errorf("query: more than %d rows", maxRows)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("query: %w", err)
		}
		row := make([]any, len(cols))
		for i, v := range vals {
			row[i] = normalize(v)
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	return out, nil
}
