package queries

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/trustlake/trustlake/stats"
)

// scalarUDF is a row-at-a-time DuckDB scalar function.
type scalarUDF struct {
	in  []duckdb.Type
	out duckdb.Type
	fn  func(args []driver.Value) (any, error)
}

func (u *scalarUDF) Config() duckdb.ScalarFuncConfig {
	infos := make([]duckdb.TypeInfo, len(u.in))
	for i, t := range u.in {
		infos[i], _ = duckdb.NewTypeInfo(t)
	}
	out, _ := duckdb.NewTypeInfo(u.out)
	return duckdb.ScalarFuncConfig{InputTypeInfos: infos, ResultTypeInfo: out}
}

func (u *scalarUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: u.fn}
}

// toCount reads a count given as DOUBLE (DuckDB casts every integer type,
// HUGEINT from count() included, to DOUBLE implicitly); ok is false for a
// value that is not a whole number.
func toCount(v driver.Value) (int, bool) {
	x, isF := v.(float64)
	if !isF || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, false
	}
	return int(x), true
}

func nullNaN(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// wilson returns the UDFs wilson_lo/wilson_hi(k, n [, alpha]). Impossible
// arguments (k or n not a whole number, k < 0, k > n, alpha outside (0, 1))
// are an error naming the call; n = 0 (no trials) gives NULL.
func wilson(hi bool) []duckdb.ScalarFunc {
	name := "wilson_lo"
	if hi {
		name = "wilson_hi"
	}
	pick := func(kv, nv driver.Value, alpha float64) (any, error) {
		k, okk := toCount(kv)
		n, okn := toCount(nv)
		call := fmt.Sprintf("%s(%v, %v, %v)", name, kv, nv, alpha)
		switch {
		case !okk || !okn:
			return nil, fmt.Errorf("%s: k and n must be whole numbers", call)
		case k < 0 || n < 0:
			return nil, fmt.Errorf("%s: k and n must not be negative", call)
		case k > n:
			return nil, fmt.Errorf("%s: k (successes) must not exceed n (trials)", call)
		case !(alpha > 0 && alpha < 1):
			return nil, fmt.Errorf("%s: alpha must lie in (0, 1)", call)
		case n == 0:
			return nil, nil
		}
		lo, h := stats.Wilson(k, n, alpha)
		if hi {
			return nullNaN(h), nil
		}
		return nullNaN(lo), nil
	}
	return withAlpha(duckdb.TYPE_DOUBLE, pick)
}

// withAlpha is the function set of f(x, y [, alpha]) over DOUBLEs, alpha
// 0.05 when not given.
func withAlpha(out duckdb.Type, f func(x, y driver.Value, alpha float64) (any, error)) []duckdb.ScalarFunc {
	double := duckdb.TYPE_DOUBLE
	return []duckdb.ScalarFunc{
		&scalarUDF{in: []duckdb.Type{double, double}, out: out,
			fn: func(a []driver.Value) (any, error) { return f(a[0], a[1], 0.05) }},
		&scalarUDF{in: []duckdb.Type{double, double, double}, out: out,
			fn: func(a []driver.Value) (any, error) { return f(a[0], a[1], a[2].(float64)) }},
	}
}

// registerFunctions adds trustlake's statistics to the connection:
// wilson_lo(k, n [, alpha]), wilson_hi(k, n [, alpha]) and mcnemar_p(b, c).
func registerFunctions(c *sql.Conn) error {
	if err := duckdb.RegisterScalarUDFSet(c, "wilson_lo", wilson(false)...); err != nil {
		return fmt.Errorf("register wilson_lo: %w", err)
	}
	if err := duckdb.RegisterScalarUDFSet(c, "wilson_hi", wilson(true)...); err != nil {
		return fmt.Errorf("register wilson_hi: %w", err)
	}
	mcnemar := &scalarUDF{in: []duckdb.Type{duckdb.TYPE_DOUBLE, duckdb.TYPE_DOUBLE}, out: duckdb.TYPE_DOUBLE,
		fn: func(a []driver.Value) (any, error) {
			b, okb := toCount(a[0])
			c, okc := toCount(a[1])
			if !okb || !okc || b < 0 || c < 0 {
				return nil, fmt.Errorf("mcnemar_p(%v, %v): the discordant counts must be whole numbers >= 0", a[0], a[1])
			}
			return stats.McNemarExact(b, c), nil
		}}
	if err := duckdb.RegisterScalarUDF(c, "mcnemar_p", mcnemar); err != nil {
		return fmt.Errorf("register mcnemar_p: %w", err)
	}
	return registerMetricFunctions(c)
}

// toInt reads an integer argument of any width (0 for anything else).
func toInt(v driver.Value) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int32:
		return int(x)
	case float64:
		if n, ok := toCount(x); ok {
			return n
		}
	}
	return 0
}
