package queries

import (
	"database/sql"
	"math"
	"strings"
	"testing"
)

// TestMetricFunctions checks the SQL functions against reference values:
// wilson_lo from statsmodels (stats/testdata/reference.json),
// mcnemar_p from statsmodels' mcnemar(exact=True), cohen_kappa from
// statsmodels' cohens_kappa, fpr_needed_negatives from seed §4.6.
func TestMetricFunctions(t *testing.T) {
	s, err := Open(t.Context(), nil, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []struct {
		query string
		want  sql.NullFloat64
	}{
		{"SELECT mcnemar_p(7, 15)", sql.NullFloat64{Float64: 0.13380050659179688, Valid: true}},
		{"SELECT mcnemar_p(0, 0)", sql.NullFloat64{Float64: 1, Valid: true}},
		{"SELECT cohen_kappa(2, 2, 1, 2)", sql.NullFloat64{Float64: 0.16, Valid: true}},
		{"SELECT cohen_kappa(3, 0, 0, 0)", sql.NullFloat64{}}, // chance agreement 1: undefined
		{"SELECT CAST(fpr_needed_negatives(0.2, 0.11) AS DOUBLE)", sql.NullFloat64{Float64: 50, Valid: true}},
		{"SELECT CAST(fpr_needed_negatives(0.2, 0.11, 0.05) AS DOUBLE)", sql.NullFloat64{Float64: 50, Valid: true}},
		{"SELECT wilson_lo(0, 0)", sql.NullFloat64{}},                                            // no trials: no interval
		{"SELECT wilson_lo(19, 84)", sql.NullFloat64{Float64: 0.14986020837445108, Valid: true}}, // stats/testdata/reference.json (statsmodels)
	}
	for _, c := range cases {
		var got sql.NullFloat64
		rows, err := s.Query(t.Context(), c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		rows.Next()
		if err := rows.Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		rows.Close()
		if got.Valid != c.want.Valid || math.Abs(got.Float64-c.want.Float64) > 1e-9 {
			t.Errorf("%s = %+v, want %+v", c.query, got, c.want)
		}
	}
}

// TestStatFunctionErrors checks that impossible arguments are an error that
// names the call and the rule, not a silent NULL.
func TestStatFunctionErrors(t *testing.T) {
	s, err := Open(t.Context(), nil, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []struct{ query, want string }{
		{"SELECT wilson_lo(10, 5)", "wilson_lo(10, 5, 0.05): k (successes) must not exceed n (trials)"},
		{"SELECT wilson_hi(-1, 5)", "wilson_hi(-1, 5, 0.05): k and n must not be negative"},
		{"SELECT wilson_lo(1.5, 5)", "wilson_lo(1.5, 5, 0.05): k and n must be whole numbers"},
		{"SELECT wilson_hi(1, 5, 1.5)", "wilson_hi(1, 5, 1.5): alpha must lie in (0, 1)"},
		{"SELECT mcnemar_p(-1, 3)", "mcnemar_p(-1, 3): the discordant counts must be whole numbers >= 0"},
		{"SELECT cohen_kappa(1, -2, 3, 4)", "cohen_kappa(1, -2, 3, 4): counts must not be negative"},
		{"SELECT fpr_needed_negatives(1.5, 0.1)", "fpr_needed_negatives(1.5, 0.1, 0.05): p must lie in [0, 1]"},
		{"SELECT fpr_needed_negatives(0.2, 0)", "fpr_needed_negatives(0.2, 0, 0.05): half_width must be > 0"},
		{"SELECT fpr_needed_negatives(0.2, 0.1, 0)", "fpr_needed_negatives(0.2, 0.1, 0): alpha must lie in (0, 1)"},
	}
	for _, c := range cases {
		rows, err := s.Query(t.Context(), c.query)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.query, err, c.want)
		}
	}
	// NULL arguments stay NULL (SQL's rule), without an error.
	var got sql.NullFloat64
	if err := s.conn.QueryRowContext(t.Context(), "SELECT wilson_lo(NULL, 5)").Scan(&got); err != nil || got.Valid {
		t.Errorf("wilson_lo(NULL, 5) = %+v, %v; want NULL", got, err)
	}
}
