package render

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

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
