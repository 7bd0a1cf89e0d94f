package queries_test

import (
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/queries"
)

// TestLakeUnderKeyValueFolder: a lake whose own path has a folder named
// like a hive partition (runs/night=3/lake) reads as any other: DuckDB must
// take partitions from the lake's layout only, not from the folders above.
func TestLakeUnderKeyValueFolder(t *testing.T) {
	l, _ := oneVerdictLakeIn(t, filepath.Join(t.TempDir(), "night=3", "split=true"))
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Query(t.Context(), "SELECT * FROM verdicts")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
	for _, c := range cols {
		if c == "night" || c == "split" {
			t.Errorf("column %q from a folder above the lake", c)
		}
	}
}
