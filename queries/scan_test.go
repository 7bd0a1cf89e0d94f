package queries

import (
	"database/sql"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
)

// TestOrNilAllocs: scanning a nullable column through orNil (or nullTo
// without valid) allocates no more than scanning it into a sql.NullString
// and taking its value, as trustBucket, the viewer, RateCells and
// MetricEpisodeRows did before 7caca11 (the helpers' closures cost one more
// allocation per nullable column of every row).
func TestOrNilAllocs(t *testing.T) {
	connector, err := duckdb.NewConnector("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	const rowsN = 3000
	scan := func(row func(*sql.Rows) (*string, error)) (int, float64) {
		n := 0
		allocs := testing.AllocsPerRun(3, func() {
			rows, err := db.QueryContext(t.Context(), "SELECT i, CASE WHEN i % 3 > 0 THEN 'v' || i END FROM range(?) t(i)", rowsN)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			n = 0
			for rows.Next() {
				p, err := row(rows)
				if err != nil {
					t.Fatal(err)
				}
				if p != nil {
					n++
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
		})
		return n, allocs
	}
	wantN, want := scan(func(rows *sql.Rows) (*string, error) {
		var r struct { // as a row of the old code: escaping through &r.id
			id int64
			p  *string
		}
		var s sql.NullString
		err := rows.Scan(&r.id, &s)
		r.p = nullPtr(s.String, s.Valid)
		return r.p, err
	})
	n, got := scan(func(rows *sql.Rows) (*string, error) {
		var r struct {
			id int64
			p  *string
		}
		err := rows.Scan(&r.id, orNil(&r.p))
		return r.p, err
	})
	if n != 2000 || wantN != 2000 {
		t.Fatalf("%d and %d non-NULL values, want 2000", n, wantN)
	}
	if got > want+rowsN/10 {
		t.Errorf("orNil: %.0f allocations for %d rows, sql.NullString %.0f", got, rowsN, want)
	}
	// nullTo without valid, against sql.NullString's String.
	wantN, want = scan(func(rows *sql.Rows) (*string, error) {
		var r struct {
			id int64
			s  string
		}
		var s sql.NullString
		err := rows.Scan(&r.id, &s)
		r.s = s.String
		return &r.s, err
	})
	_, got = scan(func(rows *sql.Rows) (*string, error) {
		var r struct {
			id int64
			s  string
		}
		err := rows.Scan(&r.id, nullTo(&r.s, nil))
		return &r.s, err
	})
	if got > want+rowsN/10 {
		t.Errorf("nullTo: %.0f allocations for %d rows, sql.NullString %.0f", got, rowsN, want)
	}
}
