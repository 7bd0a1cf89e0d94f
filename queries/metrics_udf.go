package queries

import (
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/trustlake/trustlake/stats"
)

// registerMetricFunctions adds the judge-metric SQL functions:
// cohen_kappa(tp, fp, fn, tn) (NULL where κ is undefined) and
// fpr_needed_negatives(p, half_width [, alpha]), the ground-truth negatives
// needed for a Wilson half-width at rate p (NULL on invalid input).
func registerMetricFunctions(c *sql.Conn) error {
	bigint, double := duckdb.TYPE_BIGINT, duckdb.TYPE_DOUBLE
	kappa := &scalarUDF{in: []duckdb.Type{bigint, bigint, bigint, bigint}, out: double,
		fn: func(a []driver.Value) (any, error) {
			return nullNaN(stats.CohenKappa(toInt(a[0]), toInt(a[1]), toInt(a[2]), toInt(a[3]))), nil
		}}
	if err := duckdb.RegisterScalarUDF(c, "cohen_kappa", kappa); err != nil {
		return fmt.Errorf("register cohen_kappa: %w", err)
	}
	needed := func(p, w, alpha float64) any {
		if n := stats.NegativesForHalfWidth(p, w, alpha); n > 0 {
			return int64(n)
		}
		return nil
	}
	set := []duckdb.ScalarFunc{
		&scalarUDF{in: []duckdb.Type{double, double}, out: bigint,
			fn: func(a []driver.Value) (any, error) { return needed(a[0].(float64), a[1].(float64), 0.05), nil }},
		&scalarUDF{in: []duckdb.Type{double, double, double}, out: bigint,
			fn: func(a []driver.Value) (any, error) {
				return needed(a[0].(float64), a[1].(float64), a[2].(float64)), nil
			}},
	}
	if err := duckdb.RegisterScalarUDFSet(c, "fpr_needed_negatives", set...); err != nil {
		return fmt.Errorf("register fpr_needed_negatives: %w", err)
	}
	return nil
}
