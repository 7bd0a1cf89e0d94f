package stats

import (
	"math"
	"testing"
)

func TestOneWayVariance(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name                 string
		groups               [][]float64
		between, within, rho float64
	}{
		// Group means 1 and 3, no spread inside: all variance is between.
		{"between only", [][]float64{{1, 1}, {3, 3}}, 2, 0, 1},
		// Identical groups: MSB = 0 < MSW, truncated.
		{"within only", [][]float64{{0, 1}, {0, 1}}, 0, 0.5, 0},
		{"all equal", [][]float64{{2, 2}, {2, 2, 2}}, 0, 0, nan},
		{"one group", [][]float64{{1, 2, 3}}, nan, nan, nan},
		{"singletons only", [][]float64{{1}, {2}, {3}}, nan, nan, nan},
		{"empty groups ignored", [][]float64{{}, {1, 1}, {}, {3, 3}}, 2, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, w, r := OneWayVariance(c.groups)
			for _, v := range []struct {
				name      string
				got, want float64
			}{{"between", b, c.between}, {"within", w, c.within}, {"rho", r, c.rho}} {
				if math.IsNaN(v.want) != math.IsNaN(v.got) || (!math.IsNaN(v.want) && math.Abs(v.got-v.want) > 1e-12) {
					t.Errorf("%s = %v, want %v", v.name, v.got, v.want)
				}
			}
		})
	}
}

func TestPassHatK(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		c, n []int
		k    int
		want float64
	}{
		{"pass^1 is the mean rate", []int{5, 0, 2}, []int{5, 5, 4}, 1, (1 + 0 + 0.5) / 3},
		{"pass^2", []int{4, 2}, []int{4, 4}, 2, (1 + 1.0/6) / 2},
		{"task with too few trials excluded", []int{3, 1}, []int{3, 1}, 2, 1},
		{"no task has k trials", []int{1}, []int{1}, 2, nan},
		{"k zero", []int{1}, []int{2}, 0, nan},
		{"length mismatch", []int{1, 2}, []int{2}, 1, nan},
		{"c above n", []int{3}, []int{2}, 1, nan},
		{"large n", []int{900}, []int{1000}, 10, 0},
	}
	// C(900,10)/C(1000,10), by the same product the function uses but
	// checked against log-gamma.
	cases[len(cases)-1].want = math.Exp(logBinomial(900, 10) - logBinomial(1000, 10))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := PassHatK(c.c, c.n, c.k)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-12) {
				t.Errorf("PassHatK(%v, %v, %d) = %v, want %v", c.c, c.n, c.k, got, c.want)
			}
		})
	}
}
