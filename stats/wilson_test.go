package stats

import (
	"math"
	"testing"
)

func TestWilsonTrustLayerTable5(t *testing.T) {
	lo, hi := Wilson(19, 84, 0.05)
	if got, want := math.Round(lo*1000)/1000, 0.150; got != want {
		t.Errorf("lo = %v (%.5f), want %v", got, lo, want)
	}
	if got, want := math.Round(hi*1000)/1000, 0.326; got != want {
		t.Errorf("hi = %v (%.5f), want %v", got, hi, want)
	}
}

func TestWilsonUndefined(t *testing.T) {
	cases := []struct {
		name  string
		k, n  int
		alpha float64
	}{
		{"no trials", 0, 0, 0.05},
		{"negative k", -1, 5, 0.05},
		{"k above n", 6, 5, 0.05},
		{"alpha zero", 1, 5, 0},
		{"alpha one", 1, 5, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := Wilson(c.k, c.n, c.alpha)
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("Wilson(%d, %d, %v) = [%v, %v], want NaN", c.k, c.n, c.alpha, lo, hi)
			}
		})
	}
}

func TestWilsonContainsEstimate(t *testing.T) {
	for _, alpha := range []float64{0.001, 0.05, 0.5} {
		for n := 1; n <= 120; n++ {
			prevLo := -1.0
			for k := 0; k <= n; k++ {
				lo, hi := Wilson(k, n, alpha)
				p := float64(k) / float64(n)
				if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
					t.Fatalf("Wilson(%d, %d, %v) = [%v, %v] does not contain %v within [0, 1]", k, n, alpha, lo, hi, p)
				}
				if lo < prevLo {
					t.Fatalf("Wilson lower bound not monotone in k at %d/%d", k, n)
				}
				prevLo = lo
				// Symmetry: the interval of n−k is the mirror image.
				mlo, mhi := Wilson(n-k, n, alpha)
				if math.Abs(mlo-(1-hi)) > 1e-12 || math.Abs(mhi-(1-lo)) > 1e-12 {
					t.Fatalf("Wilson(%d, %d) not the mirror of Wilson(%d, %d)", n-k, n, k, n)
				}
			}
		}
	}
}

func TestWilsonHalfWidthSeed(t *testing.T) {
	// Seed §4.6: FPR 0.20 gives about ±0.11 with 50 negatives, ±0.055 with 200.
	cases := []struct {
		n    int
		want float64
		tol  float64
	}{
		{50, 0.11, 0.005},
		{200, 0.055, 0.001},
	}
	for _, c := range cases {
		if got := WilsonHalfWidth(0.2, c.n, 0.05); math.Abs(got-c.want) > c.tol {
			t.Errorf("WilsonHalfWidth(0.2, %d, 0.05) = %v, want %v ± %v", c.n, got, c.want, c.tol)
		}
	}
	// Agrees with Wilson on an attainable rate.
	lo, hi := Wilson(10, 50, 0.05)
	if got, want := WilsonHalfWidth(0.2, 50, 0.05), (hi-lo)/2; math.Abs(got-want) > 1e-15 {
		t.Errorf("WilsonHalfWidth(0.2, 50) = %v, want (hi−lo)/2 = %v", got, want)
	}
	if got := WilsonHalfWidth(1.5, 10, 0.05); !math.IsNaN(got) {
		t.Errorf("WilsonHalfWidth(1.5, ...) = %v, want NaN", got)
	}
}

func TestNegativesForHalfWidth(t *testing.T) {
	cases := []struct {
		name     string
		p, w     float64
		alpha    float64
		wantNear int // 0: only check minimality
	}{
		{"seed 0.11", 0.2, 0.11, 0.05, 50},
		{"seed 0.055", 0.2, 0.055, 0.05, 200},
		{"rate zero", 0, 0.01, 0.05, 0},
		{"rate half", 0.5, 0.02, 0.05, 0},
		{"strict alpha", 0.05, 0.01, 0.001, 0},
		{"very wide", 0.3, 0.6, 0.05, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := NegativesForHalfWidth(c.p, c.w, c.alpha)
			if n < 1 {
				t.Fatalf("NegativesForHalfWidth(%v, %v, %v) = %d", c.p, c.w, c.alpha, n)
			}
			if hw := WilsonHalfWidth(c.p, n, c.alpha); hw > c.w {
				t.Errorf("half-width at n=%d is %v > %v", n, hw, c.w)
			}
			if n > 1 {
				if hw := WilsonHalfWidth(c.p, n-1, c.alpha); hw <= c.w {
					t.Errorf("n=%d is not the smallest: half-width at n−1 is %v <= %v", n, hw, c.w)
				}
			}
			if c.wantNear > 0 && math.Abs(float64(n-c.wantNear)) > 0.1*float64(c.wantNear) {
				t.Errorf("n = %d, want about %d", n, c.wantNear)
			}
		})
	}
	for _, bad := range [][3]float64{{-0.1, 0.1, 0.05}, {0.2, 0, 0.05}, {0.2, 0.1, 0}, {0.2, math.NaN(), 0.05}} {
		if got := NegativesForHalfWidth(bad[0], bad[1], bad[2]); got != 0 {
			t.Errorf("NegativesForHalfWidth(%v) = %d, want 0", bad, got)
		}
	}
}

func TestNormalQuantileRoundTrip(t *testing.T) {
	for _, p := range []float64{1e-300, 1e-15, 0.0001, 0.02, 0.3, 0.5, 0.77, 0.975, 0.999999} {
		x := NormalQuantile(p)
		if got := NormalCDF(x); math.Abs(got-p) > 1e-13*p {
			t.Errorf("NormalCDF(NormalQuantile(%v)) = %v", p, got)
		}
		if got := NormalQuantile(1 - p); p >= 1e-6 && math.Abs(got+x) > 1e-9 {
			t.Errorf("NormalQuantile not antisymmetric at %v: %v vs %v", p, got, x)
		}
	}
	if !math.IsInf(NormalQuantile(0), -1) || !math.IsInf(NormalQuantile(1), 1) {
		t.Error("NormalQuantile(0), (1) must be −Inf, +Inf")
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		if got := NormalQuantile(p); !math.IsNaN(got) {
			t.Errorf("NormalQuantile(%v) = %v, want NaN", p, got)
		}
	}
}
