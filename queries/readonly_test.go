package queries_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
)

func oneVerdictLake(t *testing.T) (*lake.Lake, string) {
	t.Helper()
	return oneVerdictLakeIn(t, t.TempDir())
}

// oneVerdictLakeIn makes a lake of one verdict at dir/lake and returns it
// and dir.
func oneVerdictLakeIn(t *testing.T, dir string) (*lake.Lake, string) {
	t.Helper()
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "v.jsonl")
	os.WriteFile(p, []byte(`{"episode_id":"e1","judge":"j","condition":"E1-final","run":1,"verdict":"success"}`+"\n"), 0o644)
	if _, err := ingest.Verdicts(t.Context(), l, []string{p}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return l, dir
}

// TestReadOnlyQueryRefusesWrites: `sql` could COPY over a committed Parquet
// file or the manifest; later reads then returned fewer rows. Every
// statement that can write is refused before anything runs, and the lake
// still checks clean.
func TestReadOnlyQueryRefusesWrites(t *testing.T) {
	l, dir := oneVerdictLake(t)
	files, _ := l.Files(lake.Verdicts)
	manifest := filepath.Join(l.Root(), "_manifest", "manifest.json")
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	requireRefused(t, s, []string{
		"COPY (SELECT 1 AS x) TO '" + files[0] + "' (FORMAT parquet)",
		"COPY (SELECT 1 AS x) TO '" + manifest + "'",
		"SELECT 1; COPY (SELECT 1 AS x) TO '" + files[0] + "' (FORMAT parquet)",
		"EXPORT DATABASE '" + filepath.Join(l.Root(), "verdicts") + "'",
		"ATTACH '" + filepath.Join(l.Root(), "x.db") + "' AS x",
		"EXPLAIN ANALYZE COPY (SELECT 1) TO '" + filepath.Join(dir, "y.csv") + "'",
		"INSTALL httpfs",
		"LOAD httpfs",
		"SET autoinstall_known_extensions = true",
		"CREATE TABLE t AS SELECT 1",
	})
	if _, err := os.Stat(filepath.Join(dir, "y.csv")); err == nil {
		t.Error("EXPLAIN ANALYZE ran its COPY")
	}
	if rep, _ := l.Check(t.Context()); len(rep.Problems) != 0 {
		t.Fatalf("lake changed: %+v", rep.Problems)
	}
	for _, q := range []string{"SELECT count(*) FROM verdicts", "DESCRIBE verdicts", "SUMMARIZE verdicts", "EXPLAIN SELECT 1", "FROM verdicts", "PRAGMA show_tables"} {
		rows, err := s.ReadOnlyQuery(t.Context(), q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		rows.Close()
	}
}

// TestExtensionsNeverInstalled: a read_csv('http://…') made DuckDB try to
// download httpfs. Auto-install, auto-load and community extensions are off
// and cannot be turned back on.
func TestExtensionsNeverInstalled(t *testing.T) {
	l, _ := oneVerdictLake(t)
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range []string{"autoinstall_known_extensions", "autoload_known_extensions", "allow_community_extensions"} {
		var v bool
		rows, err := s.Query(t.Context(), "SELECT current_setting(?)::BOOLEAN", name)
		if err != nil {
			t.Fatal(err)
		}
		rows.Next()
		rows.Scan(&v)
		rows.Close()
		if v {
			t.Errorf("%s is on", name)
		}
	}
	if err := s.Exec(t.Context(), "SET autoinstall_known_extensions = true"); err == nil {
		t.Error("configuration not locked: autoinstall turned back on")
	}
	if rows, err := s.ReadOnlyQuery(t.Context(), "SELECT * FROM read_csv('http://127.0.0.1:9/x.csv')"); err == nil {
		rows.Close()
		t.Error("read over http ran")
	}
}

// TestReaderDetectsChangedFile: a file whose size differs from the manifest
// is an error wrapping lake.ErrChanged, never a silently wrong count.
func TestReaderDetectsChangedFile(t *testing.T) {
	l, _ := oneVerdictLake(t)
	files, _ := l.Files(lake.Verdicts)
	f, _ := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("x"))
	f.Close()
	if _, err := queries.Open(t.Context(), l, queries.Options{}); !errors.Is(err, lake.ErrChanged) {
		t.Fatalf("got %v, want lake.ErrChanged", err)
	}
	os.Remove(files[0])
	if _, err := queries.Open(t.Context(), l, queries.Options{}); !errors.Is(err, lake.ErrChanged) {
		t.Fatalf("missing file: got %v, want lake.ErrChanged", err)
	}
}

// TestExportNotIntoLake: export --out may not point into the lake, also
// through a symlinked folder.
func TestExportNotIntoLake(t *testing.T) {
	l, dir := oneVerdictLake(t)
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	files, _ := l.Files(lake.Verdicts)
	link := filepath.Join(dir, "link")
	os.Symlink(filepath.Dir(files[0]), link)
	for _, out := range []string{files[0], filepath.Join(l.Root(), "_manifest", "manifest.json"), filepath.Join(link, "x.parquet")} {
		if _, err := s.Export(t.Context(), "SELECT 1", "parquet", out); !errors.Is(err, queries.ErrIntoLake) {
			t.Errorf("%s: %v, want ErrIntoLake", out, err)
		}
	}
	if rep, _ := l.Check(t.Context()); len(rep.Problems) != 0 {
		t.Fatalf("lake changed: %+v", rep.Problems)
	}
	if _, err := s.Export(t.Context(), "SELECT 1 AS x", "csv", filepath.Join(dir, "ok.csv")); err != nil {
		t.Fatalf("export outside the lake: %v", err)
	}
}

// TestReadOnlyQueryRefusesSessionWrites: statements that write or change
// the session through a spelling of EXPLAIN ANALYZE, a PRAGMA or a function
// are refused too (issue 24, "not yet tried"); reads still run.
func TestReadOnlyQueryRefusesSessionWrites(t *testing.T) {
	l, dir := oneVerdictLake(t)
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := filepath.Join(dir, "w.csv")
	imp := filepath.Join(dir, "imp")
	os.MkdirAll(imp, 0o755)
	os.WriteFile(filepath.Join(imp, "schema.sql"), []byte("COPY (SELECT 42 AS x) TO '"+out+"';\n"), 0o644)
	os.WriteFile(filepath.Join(imp, "load.sql"), nil, 0o644)
	requireRefused(t, s, []string{
		"/* x */ EXPLAIN ANALYZE COPY (SELECT 1) TO '" + out + "'",
		"-- x\nEXPLAIN ANALYZE COPY (SELECT 1) TO '" + out + "'",
		"EXPLAIN (ANALYZE) COPY (SELECT 1) TO '" + out + "'",
		"EXPLAIN (FORMAT json, ANALYSE) COPY (SELECT 1) TO '" + out + "'",
		"PRAGMA enable_profiling",
		"/**/ PRAGMA disable_optimizer",
		"PRAGMA force_checkpoint",
		"PRAGMA profiling_output = '" + out + "'",
		"PRAGMA import_database('" + imp + "')",
		"CALL checkpoint()",
		"CALL enable_logging()",
		"CALL truncate_duckdb_logs()",
		"SELECT * FROM checkpoint()",
		"FROM \"enable_logging\"()",
		"SELECT setseed(0.5)",
		"SELECT * FROM verdicts WHERE run IN (SELECT 1 FROM force_checkpoint())",
		"SELECT * FROM query('SELECT * FROM checkpoint()')",
		"SUMMARIZE SELECT * FROM checkpoint/**/()",
		"CREATE MACRO m(x) AS x",
		"SET threads = 1",
		"RESET threads",
		"INSTALL tpch",
		"LOAD json",
		"ATTACH ':memory:' AS m",
		"DETACH m",
		"EXPORT DATABASE '" + filepath.Join(dir, "exp") + "'",
		"COPY verdicts TO '" + out + "'",
		"USE memory",
		"CHECKPOINT",
		"VACUUM",
		"BEGIN TRANSACTION",
		"PREPARE p AS SELECT 1",
		"DROP VIEW verdicts",
	})
	for _, p := range []string{out, filepath.Join(dir, "exp")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	for _, q := range []string{"EXPLAIN SELECT * FROM verdicts", "PRAGMA version", "PRAGMA table_info('verdicts')", "CALL pragma_version()",
		"SELECT 'checkpoint()' AS s, 'analyze' AS a", "SELECT * FROM duckdb_settings()", "FROM read_text('" + filepath.Join(imp, "schema.sql") + "')",
		"-- enable_logging()\nSELECT 1"} {
		rows, err := s.ReadOnlyQuery(t.Context(), q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		rows.Close()
	}
}

// requireRefused runs each statement through ReadOnlyQuery and requires
// ErrNotReadOnly before anything runs.
func requireRefused(t *testing.T, s *queries.Session, statements []string) {
	t.Helper()
	for _, q := range statements {
		rows, err := s.ReadOnlyQuery(t.Context(), q)
		if err == nil {
			rows.Close()
			t.Errorf("%s: ran", q)
			continue
		}
		if !errors.Is(err, queries.ErrNotReadOnly) {
			t.Errorf("%s: %v, want ErrNotReadOnly", q, err)
		}
	}
}
