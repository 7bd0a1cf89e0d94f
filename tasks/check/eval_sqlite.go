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
	"slices"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver "sqlite"
)

// sqliteTimeout bounds one query.
const sqliteTimeout = 10 * time.Second

// maxRows bounds the rows a query may return.
const maxRows = 1000

// evalSQLite runs Query on a private, query-only copy of the database data
// read from Path, with its -wal/-journal companions read through the
// final-state root. Without companions the copy is in memory
// (sqlite3_deserialize), so the check needs no
// writable folder; with them it is a temporary folder, so that SQLite
// replays the journal. Equals is a list of rows (each a list) to compare the
// whole result, or a scalar to compare a one-row, one-column result.
func evalSQLite(ctx context.Context, s *Spec, final *os.Root, data []byte) (bool, any, error) {
	ctx, cancel := context.WithTimeout(ctx, sqliteTimeout)
	defer cancel()
	var err error
	files := map[string][]byte{"": data} // the database and its non-empty companions, by suffix
	for _, suffix := range []string{"-wal", "-journal"} {
		c, err := readFile(final, s.Path+suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false, nil, shortErr(err)
		}
		if len(c) > 0 {
			files[suffix] = c
		}
	}
	var db *sql.DB
	if len(files) == 1 {
		db, err = openInMemory(ctx, data)
	} else {
		var cleanup func()
		db, cleanup, err = openCopy(path.Base(s.Path), files)
		if cleanup != nil {
			defer cleanup()
		}
	}
	if err != nil {
		return false, nil, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
		return false, nil, fmt.Errorf("open database: %w", err)
	}
	rows, err := queryRows(ctx, db, s.Query)
	if err != nil {
		return false, nil, err
	}
	if want, ok := normalize(s.Equals).([]any); ok && allLists(want) {
		got := append([]any{}, rows...) // no row shows as [], not null
		return equal(got, want, s.Tolerance), got, nil
	}
	if len(rows) != 1 || len(rows[0].([]any)) != 1 {
		return false, rows, fmt.Errorf("query returned %d rows; a scalar equals needs exactly one row of one column", len(rows))
	}
	v := rows[0].([]any)[0]
	return equal(v, s.Equals, s.Tolerance), v, nil
}

// openInMemory loads data into a private in-memory database.
func openInMemory(ctx context.Context, data []byte) (*sql.DB, error) {
	if len(data) < 100 || string(data[:16]) != "SQLite format 3\x00" {
		return nil, errors.New("open database: not an SQLite 3 file")
	}
	// A database last used in WAL mode has read/write versions 2 in its
	// header; with no WAL file present, the legacy values read the same pages.
	data = append([]byte(nil), data...)
	if data[18] == 2 && data[19] == 2 {
		data[18], data[19] = 1, 1
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		d, ok := dc.(interface{ Deserialize([]byte) error })
		if !ok {
			return errors.New("driver cannot deserialize")
		}
		return d.Deserialize(data)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	return db, nil
}

// openCopy writes the database and its journal files (by suffix of base)
// to a temporary folder.
func openCopy(base string, files map[string][]byte) (*sql.DB, func(), error) {
	tmp, err := os.MkdirTemp("", "trustlake-sqlite-")
	if err != nil {
		return nil, nil, errors.New("open database: it has a journal or WAL file, and no writable temporary folder to replay it in")
	}
	cleanup := func() { os.RemoveAll(tmp) }
	for suffix, c := range files {
		if err := os.WriteFile(filepath.Join(tmp, base+suffix), c, 0o600); err != nil {
			return nil, cleanup, errors.New("open database: copy to a temporary folder failed")
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(tmp, base))
	if err != nil {
		return nil, cleanup, fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(1)
	return db, cleanup, nil
}

func allLists(v []any) bool {
	return !slices.ContainsFunc(v, func(e any) bool { _, ok := e.([]any); return !ok })
}

// queryRows returns the rows of q, each a []any of normalized values.
func queryRows(ctx context.Context, db *sql.DB, q string) ([]any, error) {
	rs, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	var out []any
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
		for i, v := range vals {
			vals[i] = normalize(v)
		}
		out = append(out, vals)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	return out, nil
}
