// Package render writes results for people and programs: query rows as a
// table, CSV, JSON or JSONL, indented JSON, and the number formats the
// commands' text output shares.
package render

import (
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// Formats are the output formats of Rows.
var Formats = []string{"table", "csv", "json", "jsonl"}

// JSONValue turns a driver value into something encoding/json writes
// faithfully: times in RFC 3339 UTC, NaN/Inf as null, bytes as text.
func JSONValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		return string(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
	case *big.Int:
		return json.Number(x.String())
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = JSONValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSONValue(e)
		}
		return out
	}
	return v
}

// TextValue renders a value for table and CSV output.
func TextValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case float64:
		return formatFloat(x)
	case map[string]any, []any:
		b, _ := json.Marshal(JSONValue(x))
		return string(b)
	}
	return fmt.Sprint(v)
}

func formatFloat(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("%.6g", x)
}

// Rows writes query rows in format (one of Formats) and returns how many.
func Rows(w io.Writer, rows *sql.Rows, format string) (int, error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	table, cw, enc := [][]string{cols}, csv.NewWriter(w), json.NewEncoder(w)
	switch format {
	case "csv":
		cw.Write(cols)
	case "json":
		io.WriteString(w, "[")
	}
	n := 0
	for ; rows.Next(); n++ {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		switch format {
		case "table", "csv":
			rec := make([]string, len(vals))
			for i, v := range vals {
				rec[i] = TextValue(v)
			}
			if format == "csv" {
				cw.Write(rec)
			} else {
				table = append(table, rec)
			}
		case "json", "jsonl":
			obj := orderedObject{keys: cols, vals: make([]any, len(vals))}
			for i, v := range vals {
				obj.vals[i] = JSONValue(v)
			}
			if format == "json" {
				io.WriteString(w, map[bool]string{true: "\n", false: ",\n"}[n == 0])
			}
			if err := enc.Encode(obj); err != nil {
				return n, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	switch format {
	case "table":
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, rec := range table {
			for i := range rec {
				rec[i] = Clip(strings.ReplaceAll(rec[i], "\n", "\\n"), 60)
			}
			fmt.Fprintln(tw, strings.Join(rec, "\t"))
		}
		tw.Flush()
	case "csv":
		cw.Flush()
		return n, cw.Error()
	case "json":
		io.WriteString(w, "]\n")
	}
	return n, nil
}

// Clip shortens s to max runes, ending in "…" when cut.
func Clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// orderedObject marshals as a JSON object keeping column order.
type orderedObject struct {
	keys []string
	vals []any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}

// JSON writes v as indented JSON.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Num renders a value with three decimals, "-" when undefined.
func Num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	if math.Abs(x) < 0.0005 {
		x = 0 // no "-0.000"
	}
	return fmt.Sprintf("%.3f", x)
}

// Span renders an interval as " [lo,hi]" between open and close, "" when
// undefined.
func Span(iv [2]float64, open, close string) string {
	if math.IsNaN(iv[0]) || math.IsNaN(iv[1]) {
		return ""
	}
	return fmt.Sprintf(" %s%.3f,%.3f%s", open, iv[0], iv[1], close)
}
