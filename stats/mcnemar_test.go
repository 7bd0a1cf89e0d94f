package stats

import (
	"math"
	"testing"
)

func TestMcNemarExactEdges(t *testing.T) {
	cases := []struct {
		name string
		b, c int
		want float64
	}{
		{"no discordant pairs", 0, 0, 1},
		{"balanced", 7, 7, 1},
		{"one pair", 0, 1, 1},
		{"all one way, 5", 0, 5, 2.0 / 32},
		{"all one way, 10", 10, 0, 2.0 / 1024},
		{"negative", -1, 3, math.NaN()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := McNemarExact(c.b, c.c)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-15) {
				t.Errorf("McNemarExact(%d, %d) = %v, want %v", c.b, c.c, got, c.want)
			}
		})
	}
}

func TestMcNemarExactProperties(t *testing.T) {
	for n := 1; n <= 300; n += 7 {
		prev := 0.0
		for b := 0; b <= n/2; b++ {
			p := McNemarExact(b, n-b)
			if p != McNemarExact(n-b, b) {
				t.Fatalf("McNemarExact not symmetric at (%d, %d)", b, n-b)
			}
			if !(p >= prev && p <= 1) {
				t.Fatalf("McNemarExact(%d, %d) = %v: not in [%v, 1]", b, n-b, p, prev)
			}
			prev = p
		}
	}
	// Large counts stay finite and sensible: a 0.2% imbalance on two million
	// pairs is about 2.8 standard errors (p ≈ 0.005).
	got := McNemarExact(998_000, 1_002_000)
	if z := NormalQuantile(got / 2); !(got > 0.003 && got < 0.008) || math.Abs(z+2.83) > 0.02 {
		t.Errorf("McNemarExact(998000, 1002000) = %v (z %v), want ≈ 0.005", got, z)
	}
	if got := McNemarExact(0, 5000); got != 0 && got > 1e-300 {
		t.Errorf("McNemarExact(0, 5000) = %v, want underflow to about 0", got)
	}
}

func TestBinomCDF(t *testing.T) {
	cases := []struct {
		c, n int
		q    float64
		want float64
	}{
		{-1, 5, 0.3, 0},
		{5, 5, 0.3, 1},
		{0, 5, 0, 1},
		{4, 5, 1, 0},
		{0, 3, 0.5, 0.125},
		{1, 3, 0.5, 0.5},
		{2, 4, 0.25, 1 - 4*0.25*0.25*0.25*0.75 - 0.25*0.25*0.25*0.25},
	}
	for _, c := range cases {
		if got := binomCDF(c.c, c.n, c.q); math.Abs(got-c.want) > 1e-14 {
			t.Errorf("binomCDF(%d, %d, %v) = %v, want %v", c.c, c.n, c.q, got, c.want)
		}
	}
	// The half case agrees with the log-space tail McNemar uses.
	for _, m := range []int{0, 3, 40, 99} {
		got, want := binomCDF(m, 200, 0.5), math.Exp(logHalfBinomLowerTail(m, 200))
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("binomCDF(%d, 200, 0.5) = %v, tail = %v", m, got, want)
		}
	}
}
