package check

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// TestSQLiteWAL: a database left in WAL mode, with and without an
// uncheckpointed -wal file (an application still running when the state
// was captured).
func TestSQLiteWAL(t *testing.T) {
	final := t.TempDir()
	live := filepath.Join(t.TempDir(), "places.sqlite")
	db, err := sql.Open("sqlite", live)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		"PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0",
		"CREATE TABLE t(x)", "INSERT INTO t VALUES (1)", "PRAGMA wal_checkpoint(TRUNCATE)", "INSERT INTO t VALUES (2)",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(live + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(final, "places.sqlite"+suffix), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := Spec{Type: TypeSQLiteQuery, Path: "places.sqlite", Query: "SELECT count(*) FROM t", Equals: 2.0}
	holds, got, err := evalOne(t.Context(), &s, Env{Final: final})
	if !holds {
		t.Errorf("with -wal: got %v, err %v; want the uncheckpointed row counted", got, err)
	}
	// Without the -wal file the header still says WAL; the in-memory path
	// reads the checkpointed content.
	if err := os.Remove(filepath.Join(final, "places.sqlite-wal")); err != nil {
		t.Fatal(err)
	}
	s.Equals = 1.0
	holds, got, err = evalOne(t.Context(), &s, Env{Final: final})
	if !holds {
		t.Errorf("without -wal: got %v, err %v; want 1", got, err)
	}
	if err := os.WriteFile(filepath.Join(final, "places.sqlite"), []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if holds, _, err := evalOne(t.Context(), &s, Env{Final: final}); holds || err == nil {
		t.Errorf("garbage database: holds %v, err %v", holds, err)
	}
}
