package render

import (
	"math"
	"testing"
)

func TestNumAndSpan(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0.1234, "0.123"}, {-0.0001, "0.000"}, {math.NaN(), "-"}, {math.Inf(1), "-"}} {
		if got := Num(c.x); got != c.want {
			t.Errorf("Num(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	if got := Span([2]float64{0.15, 0.326}, "[", "]"); got != " [0.150,0.326]" {
		t.Errorf("Span = %q", got)
	}
	if got := Span([2]float64{math.NaN(), 1}, "{", "}"); got != "" {
		t.Errorf("Span of an undefined interval = %q, want empty", got)
	}
	if got := Clip("abcdef", 4); got != "abc…" {
		t.Errorf("Clip = %q", got)
	}
}
