package stats

import (
	"math"
	"testing"
)

func TestCohenKappa(t *testing.T) {
	cases := []struct {
		name           string
		tp, fp, fn, tn int
		want           float64
	}{
		{"perfect", 30, 0, 0, 70, 1},
		{"inverted", 0, 50, 50, 0, -1},
		{"inverted, unequal margins", 0, 40, 60, 0, -0.48 / 0.52},
		{"chance", 25, 25, 25, 25, 0},
		{"empty", 0, 0, 0, 0, math.NaN()},
		{"both constant", 10, 0, 0, 0, math.NaN()},
		{"negative", 1, -1, 0, 3, math.NaN()},
		// Judge says success always, GT mixed: κ = 0.
		{"judge constant", 6, 4, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CohenKappa(c.tp, c.fp, c.fn, c.tn)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-15) {
				t.Errorf("CohenKappa = %v, want %v", got, c.want)
			}
		})
	}
}

func TestFleissKappa(t *testing.T) {
	cases := []struct {
		name   string
		counts [][]int
		want   float64
	}{
		{"perfect agreement", [][]int{{3, 0}, {0, 3}, {3, 0}}, 1},
		{"one category", [][]int{{3, 0}, {3, 0}}, math.NaN()},
		{"empty", nil, math.NaN()},
		{"ragged", [][]int{{3, 0}, {1, 1, 1}}, math.NaN()},
		{"negative", [][]int{{3, -1}, {1, 1}}, math.NaN()},
		{"only single ratings", [][]int{{1, 0}, {0, 1}}, math.NaN()},
		// Each subject split 1-1: P̄ = 0, Pe = 0.5.
		{"maximal disagreement", [][]int{{1, 1}, {1, 1}}, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FleissKappa(c.counts)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-15) {
				t.Errorf("FleissKappa(%v) = %v, want %v", c.counts, got, c.want)
			}
		})
	}
	// Subjects with fewer than two ratings are dropped, not counted.
	base := [][]int{{3, 0}, {2, 1}, {0, 3}, {1, 2}}
	withSingles := append([][]int{{1, 0}, {0, 0}}, base...)
	if got, want := FleissKappa(withSingles), FleissKappa(base); got != want {
		t.Errorf("FleissKappa with single-rating rows = %v, want %v", got, want)
	}
}
