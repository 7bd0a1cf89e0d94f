// Package queries is the one package that links DuckDB: a session with
// views over the lake's committed files, Go statistics as SQL functions,
// embedded .sql files and typed results.
package queries

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/trustlake/trustlake/lake"
)

// ErrBadAttach reports an --attach argument that cannot be used.
var ErrBadAttach = errors.New("bad attach")

// Options configure a Session. Zero values mean the defaults.
type Options struct {
	Threads     int          // DuckDB threads; 0 means DuckDB's default (all cores)
	MemoryLimit string       // e.g. "4GB"; "" means DuckDB's default
	Logger      *slog.Logger // nil discards
}

// Session is a DuckDB connection with the lake's views and trustlake's SQL
// functions. It is not safe for concurrent use; open one per goroutine.
type Session struct {
	db        *sql.DB
	conn      *sql.Conn
	tmp       string
	lk        *lake.Lake
	version   int64 // manifest version of the views
	opts      Options
	afterView func(table string) // test hook: runs after each table view
	// runCountsPerEpisode: run_counts also holds one row per (judge,
	// condition, episode) (MetricsScoresCounted reads its scores then).
	runCountsPerEpisode bool
	// noResults: the snapshot's results table has no rows (its manifest
	// lists none), so TrustBenchmarks has nothing to count.
	noResults bool
	// counts: the rows of the tables the metrics read, from the snapshot's
	// manifest (nil without a lake).
	counts *LakeCounts
	// kept: what the rows KeepMetricEpisodes kept were computed for (nil
	// when none are kept).
	kept *keptEpisodes
}

// Open starts a session over the lake's committed state: one snapshot of
// the manifest at this moment for every view. The session's time zone is UTC.
func Open(ctx context.Context, src *lake.Lake, opts Options) (*Session, error) {
	return open(ctx, src, opts, nil)
}

func open(ctx context.Context, src *lake.Lake, opts Options, afterView func(string)) (*Session, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	connector, err := duckdb.NewConnector("", nil)
	if err != nil {
		return nil, fmt.Errorf("start duckdb: %w", err)
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("connect duckdb: %w", err)
	}
	s := &Session{db: db, conn: conn, lk: src, opts: opts, afterView: afterView}
	if err := s.init(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) init(ctx context.Context) error {
	// No extension is ever downloaded or loaded on demand (a
	// read_csv('http://…') tried to fetch httpfs), community extensions
	// are off, and after init the configuration is locked so that SQL
	// cannot turn them back on. What is statically linked (parquet, json,
	// icu, …) works as before.
	stmts := []string{
		"SET autoinstall_known_extensions = false",
		"SET autoload_known_extensions = false",
		"SET allow_community_extensions = false",
		"SET TimeZone = 'UTC'",
	}
	if s.opts.Threads > 0 {
		stmts = append(stmts, fmt.Sprintf("SET threads = %d", s.opts.Threads))
	}
	if s.opts.MemoryLimit != "" {
		stmts = append(stmts, "SET memory_limit = "+quote(s.opts.MemoryLimit))
	}
	for _, q := range stmts {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("configure duckdb (%s): %w", q, err)
		}
	}
	if err := registerFunctions(s.conn); err != nil {
		return err
	}
	if s.lk != nil {
		if err := s.createViews(ctx); err != nil {
			return err
		}
	}
	if _, err := s.conn.ExecContext(ctx, "SET lock_configuration = true"); err != nil {
		return fmt.Errorf("configure duckdb (lock_configuration): %w", err)
	}
	return nil
}

// Close ends the session and removes its temporary files.
func (s *Session) Close() error {
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	if s.db != nil {
		err = errors.Join(err, s.db.Close())
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
	return err
}

// Query runs a query with ? parameters; the caller closes the rows.
func (s *Session) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.conn.QueryContext(ctx, query, args...)
}

// Exec runs a statement with ? parameters.
func (s *Session) Exec(ctx context.Context, query string, args ...any) error {
	_, err := s.conn.ExecContext(ctx, query, args...)
	return err
}

// Version returns the manifest version the session's views read (0 for
// an empty lake or a session without a lake).
func (s *Session) Version() int64 { return s.version }

// quote makes a SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// eachRow runs query and calls fn on every row until fn fails; fn's error
// is returned as is, the query's wrapped as "<what>: <error>".
func (s *Session) eachRow(ctx context.Context, what string, fn func(*sql.Rows) error, query string, args ...any) error {
	rows, err := s.Query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// collect returns one T per row of query, scanned into dest(&t); a scan
// error is wrapped as "scan <item>: <error>", the query's as eachRow's.
func collect[T any](ctx context.Context, s *Session, what, item string, dest func(*T) []any, query string,
	args ...any) ([]T, error) {
	var out []T
	err := s.eachRow(ctx, what, func(rows *sql.Rows) error {
		var t T
		if err := rows.Scan(dest(&t)...); err != nil {
			return fmt.Errorf("scan %s: %w", item, err)
		}
		out = append(out, t)
		return nil
	}, query, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanFunc is a sql.Scanner made of a function.
type scanFunc func(src any) error

func (f scanFunc) Scan(src any) error { return f(src) }

// orNil scans a column that may be NULL into *p: nil for NULL.
func orNil[T any](p **T) nilScanner[T] { return nilScanner[T]{p} }

// nilScanner is orNil's sql.Scanner: a struct of one pointer, so that
// passing it to Scan allocates nothing (a closure cost one allocation per
// nullable column of every row).
type nilScanner[T any] struct{ p **T }

func (s nilScanner[T]) Scan(src any) error {
	var n sql.Null[T]
	err := n.Scan(src)
	*s.p = nullPtr(n.V, n.Valid)
	return err
}

// nullTo scans a column that may be NULL into *p (the zero T for NULL) and,
// when valid is not nil, whether it was not NULL into *valid. Without valid
// its scanner is a struct of one pointer: passing it to Scan allocates
// nothing (as orNil's).
func nullTo[T any](p *T, valid *bool) sql.Scanner {
	if valid == nil {
		return zeroScanner[T]{p}
	}
	return scanFunc(func(src any) error {
		var n sql.Null[T]
		err := n.Scan(src)
		*p, *valid = n.V, n.Valid
		return err
	})
}

// zeroScanner is nullTo's sql.Scanner without valid.
type zeroScanner[T any] struct{ p *T }

func (s zeroScanner[T]) Scan(src any) error {
	var n sql.Null[T]
	err := n.Scan(src)
	*s.p = n.V
	return err
}

// nullPtr returns &v when valid, else nil.
func nullPtr[T any](v T, valid bool) *T {
	if !valid {
		return nil
	}
	return &v
}

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
