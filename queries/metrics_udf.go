package queries

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/trustlake/trustlake/stats"
)

// registerMetricFunctions adds the judge-metric SQL functions:
// cohen_kappa(tp, fp, fn, tn) (NULL where κ is undefined) and
// fpr_needed_negatives(p, half_width [, alpha]), the ground-truth negatives
// needed for a Wilson half-width at rate p. Impossible arguments (negative
// counts, p outside [0, 1], half_width <= 0, alpha outside (0, 1)) are an
// error naming the call, never a silent NULL.
func registerMetricFunctions(c *sql.Conn) error {
	bigint, double := duckdb.TYPE_BIGINT, duckdb.TYPE_DOUBLE
	kappa := &scalarUDF{in: []duckdb.Type{bigint, bigint, bigint, bigint}, out: double,
		fn: func(a []driver.Value) (any, error) {
			tp, fp, fn, tn := toInt(a[0]), toInt(a[1]), toInt(a[2]), toInt(a[3])
			if tp < 0 || fp < 0 || fn < 0 || tn < 0 {
				return nil, fmt.Errorf("cohen_kappa(%d, %d, %d, %d): counts must not be negative", tp, fp, fn, tn)
			}
			return nullNaN(stats.CohenKappa(tp, fp, fn, tn)), nil // NULL when chance agreement is 1
		}}
	if err := duckdb.RegisterScalarUDF(c, "cohen_kappa", kappa); err != nil {
		return fmt.Errorf("register cohen_kappa: %w", err)
	}
	needed := func(pv, wv driver.Value, alpha float64) (any, error) {
		p, w := pv.(float64), wv.(float64)
		call := fmt.Sprintf("fpr_needed_negatives(%v, %v, %v)", p, w, alpha)
		switch {
		case !(p >= 0 && p <= 1):
			return nil, fmt.Errorf("%s: p must lie in [0, 1]", call)
		case !(w > 0) || math.IsInf(w, 0):
			return nil, fmt.Errorf("%s: half_width must be > 0", call)
		case !(alpha > 0 && alpha < 1):
			return nil, fmt.Errorf("%s: alpha must lie in (0, 1)", call)
		}
		if n := stats.NegativesForHalfWidth(p, w, alpha); n > 0 {
			return int64(n), nil
		}
		return nil, nil // more than stats' search limit
	}
	if err := duckdb.RegisterScalarUDFSet(c, "fpr_needed_negatives", withAlpha(bigint, needed)...); err != nil {
		return fmt.Errorf("register fpr_needed_negatives: %w", err)
	}
	return nil
}
