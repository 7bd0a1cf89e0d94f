package spark_test

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/internal/sparktest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/queries/spark"
)

// fileURI is the lake's root as the engine sees it here: the same machine.
func fileURI(l *lake.Lake) string { return "file://" + l.Root() }

func openBoth(t *testing.T, src *lake.Lake) (*queries.Session, *spark.Session) {
	t.Helper()
	remote := sparktest.Remote(t)
	ctx := t.Context()
	duck, err := queries.Open(ctx, src, queries.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { duck.Close() })
	sp, err := spark.Open(ctx, remote, spark.Options{LakeURI: fileURI(src)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	return duck, sp
}

// norm renders a value of either engine canonically: timestamps in UTC to
// the microsecond, floats with the shortest exact digits, strings quoted.
func norm(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return strconv.Quote(x)
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case bool:
		return strconv.FormatBool(x)
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64:
		return fmt.Sprintf("%d", x)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case arrow.Timestamp:
		return time.UnixMicro(int64(x)).UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

// canon turns rows into sorted lines "col=value|col=value..." with the
// columns in name order, so column order and row order do not matter.
func canon(cols []string, rows [][]any) []string {
	order := slices.Clone(cols)
	slices.Sort(order)
	idx := map[string]int{}
	for i, c := range cols {
		idx[c] = i
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		parts := make([]string, len(order))
		for j, c := range order {
			parts[j] = c + "=" + norm(r[idx[c]])
		}
		out[i] = strings.Join(parts, "|")
	}
	slices.Sort(out)
	return out
}

func duckRows(t *testing.T, s *queries.Session, q string) ([]string, [][]any) {
	t.Helper()
	rows, err := s.Query(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, out
}

func sparkRows(t *testing.T, s *spark.Session, q string) ([]string, [][]any) {
	t.Helper()
	rows, err := s.Query(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	out := make([][]any, len(rows))
	for i, r := range rows {
		if i == 0 {
			cols = r.FieldNames()
		}
		out[i] = r.Values()
	}
	return cols, out
}

// TestSparkTablesParity: a real Spark cluster reads every lake table as-is
// (hive partitions with percent-encoded values, timestamps, JSON text,
// NULLs) and gets exactly DuckDB's rows, table by table; it reads the
// manifest's files only (the fixture leaves a superseded file and an
// orphan in the folders).
func TestSparkTablesParity(t *testing.T) {
	src := sharedLake(t)
	duck, sp := openBoth(t, src)
	m, err := src.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tombstones) == 0 {
		t.Fatal("fixture: want a superseded file in the manifest's tombstones")
	}
	for _, tb := range lake.Tables() {
		t.Run(tb.Name, func(t *testing.T) {
			q := "SELECT * FROM " + tb.Name
			dc, dr := duckRows(t, duck, q)
			sc, sr := sparkRows(t, sp, q)
			if len(dr) == 0 {
				t.Fatalf("fixture: table %s is empty", tb.Name)
			}
			want, got := canon(dc, dr), canon(dc, sr)
			if len(sr) > 0 {
				got = canon(sc, sr)
				if d := cmp.Diff(sortedCopy(dc), sortedCopy(sc)); d != "" {
					t.Errorf("columns differ (-duckdb +spark):\n%s", d)
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s: %d DuckDB rows, %d Spark rows; differences (-duckdb +spark):\n%s", tb.Name, len(dr), len(sr), d)
			}
		})
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
