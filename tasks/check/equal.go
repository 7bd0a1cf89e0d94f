package check

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// normalize turns decoded values of any format into JSON-like values:
// every number becomes float64, maps get string keys, times become RFC 3339.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []byte:
		return string(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[toString(k)] = normalize(e)
		}
		return out
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint())
	case reflect.Float32, reflect.Float64:
		return rv.Float()
	case reflect.Slice: // []any, and TOML's []map[string]any
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = normalize(rv.Index(i).Interface())
		}
		return out
	}
	return v
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	return strings.TrimSpace(reflect.ValueOf(v).String())
}

// equal compares an observed value with the wanted one from task.json.
//
// A wanted number matches a number within tol, or a string that parses as
// one (CSV and INI values are text). A wanted string matches the same string,
// or a number or boolean printed the plain way (4500, true). A wanted boolean
// matches a boolean or "true"/"false". Lists and objects compare element by
// element with the same rules.
func equal(got, want any, tol float64) bool {
	got, want = normalize(got), normalize(want)
	if tol == 0 {
		tol = 1e-9
	}
	switch w := want.(type) {
	case nil:
		return got == nil
	case float64:
		switch g := got.(type) {
		case float64:
			return math.Abs(g-w) <= tol
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(g), 64)
			return err == nil && math.Abs(f-w) <= tol
		}
		return false
	case string:
		switch g := got.(type) {
		case string:
			return g == w
		case float64, bool:
			return toString(g) == w
		}
		return false
	case bool:
		switch g := got.(type) {
		case bool:
			return g == w
		case string:
			b, err := strconv.ParseBool(strings.TrimSpace(g))
			return err == nil && b == w
		}
		return false
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !equal(g[i], w[i], tol) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !equal(gv, wv, tol) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}
