package queries

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
)

// ErrNotReadOnly means a statement given to ReadOnlyQuery could write (a
// file, the lake, a database) or change the session; see ReadOnlyQuery.
var ErrNotReadOnly = errors.New("not a read-only statement")

// ErrIntoLake means an export's output would land inside the lake.
var ErrIntoLake = errors.New("inside the lake")

// readOnlyTypes are the statement types ReadOnlyQuery runs. SELECT covers
// DESCRIBE, SHOW, SUMMARIZE, PIVOT and FROM-first queries.
var readOnlyTypes = map[duckdb.StmtType]bool{
	duckdb.STATEMENT_TYPE_SELECT:  true,
	duckdb.STATEMENT_TYPE_EXPLAIN: true,
	duckdb.STATEMENT_TYPE_PRAGMA:  true,
	duckdb.STATEMENT_TYPE_CALL:    true,
}

// ReadOnlyQuery runs exactly one statement that reads: SELECT (with
// DESCRIBE, SHOW, SUMMARIZE), EXPLAIN (not EXPLAIN ANALYZE in any spelling,
// which runs its statement), the PRAGMAs in readPragmas and CALL. COPY,
// EXPORT, ATTACH, INSTALL, LOAD, SET, CREATE (MACRO, TABLE, …), INSERT and
// every other statement are refused with ErrNotReadOnly before anything
// runs, and so is a text of several statements (the driver would run all
// but the last to prepare it), and a statement calling a function that
// changes the session or runs SQL text (sessionFunctions: checkpoint(),
// enable_logging(), setseed(), query('…'), …). Queries may read any file the
// process can read (read_csv, read_parquet, …); they cannot write one, so
// neither the lake nor any other file changes. The caller closes the rows.
func (s *Session) ReadOnlyQuery(ctx context.Context, query string) (*sql.Rows, error) {
	if w := strings.ToLower(firstWord(stripComments(query))); !readKeywords[w] {
		return nil, fmt.Errorf("%w: %s statements may write files or change the session; sql only reads (write results with trustlake export --out FILE)", ErrNotReadOnly, strings.ToUpper(w))
	}
	var typ duckdb.StmtType
	err := s.conn.Raw(func(dc any) error {
		c, ok := dc.(*duckdb.Conn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		st, err := c.Prepare(query) // one statement only; nothing runs
		if err != nil {
			if strings.Contains(err.Error(), "multi-statement") {
				return fmt.Errorf("%w: give one statement per call", ErrNotReadOnly)
			}
			return err
		}
		defer st.Close()
		typ, err = st.(*duckdb.Stmt).StatementType()
		return err
	})
	if err != nil {
		return nil, err
	}
	if !readOnlyTypes[typ] || typ == duckdb.STATEMENT_TYPE_EXPLAIN && analyzeWord.MatchString(stripComments(query)) {
		return nil, fmt.Errorf("%w: %s statements may write files or change the session; sql only reads (write results with trustlake export --out FILE)", ErrNotReadOnly, stmtName(typ, query))
	}
	if name := s.refusedCall(ctx, query, typ == duckdb.STATEMENT_TYPE_PRAGMA); name != "" {
		return nil, fmt.Errorf("%w: %s changes the session or the database, or runs SQL the filter cannot see; sql only reads", ErrNotReadOnly, name)
	}
	return s.conn.QueryContext(ctx, query)
}

// stmtName names a statement type for messages: its first keyword.
func stmtName(typ duckdb.StmtType, query string) string {
	plain := stripComments(query)
	if typ == duckdb.STATEMENT_TYPE_EXPLAIN && analyzeWord.MatchString(plain) {
		return "EXPLAIN ANALYZE"
	}
	if w := firstWord(plain); w != "" {
		return strings.ToUpper(w)
	}
	return fmt.Sprint(typ)
}

// checkOutsideLake refuses an output path inside the lake (after resolving
// symlinks of its folder): an export must never replace a committed file
// or the manifest.
func (s *Session) checkOutsideLake(out string) error {
	if s.lk == nil {
		return nil
	}
	resolve := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return p
	}
	root, dir := resolve(s.lk.Root()), resolve(filepath.Dir(out))
	p := filepath.Join(dir, filepath.Base(out))
	if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return fmt.Errorf("%w: %s is in the lake %s; export writes outside it", ErrIntoLake, out, s.lk.Root())
	}
	return nil
}
