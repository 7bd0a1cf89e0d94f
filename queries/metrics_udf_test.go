package queries

import (
	"database/sql"
	"math"
	"testing"
)

// TestMetricFunctions checks the SQL functions against reference values:
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
		{"SELECT mcnemar_p(-1, 3)", sql.NullFloat64{}},
		{"SELECT cohen_kappa(2, 2, 1, 2)", sql.NullFloat64{Float64: 0.16, Valid: true}},
		{"SELECT cohen_kappa(3, 0, 0, 0)", sql.NullFloat64{}}, // chance agreement 1: undefined
		{"SELECT CAST(fpr_needed_negatives(0.2, 0.11) AS DOUBLE)", sql.NullFloat64{Float64: 50, Valid: true}},
		{"SELECT CAST(fpr_needed_negatives(0.2, 0.11, 0.05) AS DOUBLE)", sql.NullFloat64{Float64: 50, Valid: true}},
		{"SELECT CAST(fpr_needed_negatives(1.5, 0.1) AS DOUBLE)", sql.NullFloat64{}},
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
