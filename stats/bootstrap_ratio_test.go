package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBootstrapRatiosSharedVectors: statistics that share vectors (a
// paired difference and its two rates, as metrics.Compare asks) get the
// intervals each gets alone, bit for bit, with fractional values.
func TestBootstrapRatiosSharedVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 40
	ids := make([]string, n)
	a, b, den := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		ids[i] = string(rune('A'+i/26)) + string(rune('a'+i%26))
		den[i] = float64(rng.IntN(5))
		a[i], b[i] = rng.Float64()*den[i], rng.Float64()*den[i]
	}
	opts := BootstrapOptions{Resamples: 500, Seed: 3, Alpha: 0.05}
	all := []RatioStat{{A: Ratio{a, den}, B: Ratio{b, den}}, {A: Ratio{a, den}}, {A: Ratio{b, den}}}
	got, err := BootstrapRatios(ids, all, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: WeightedRatio per statistic on each resample's
	// counts (the ids are in sorted order, so the sums' order is the same).
	R := opts.Resamples
	ref := make([][]float64, len(all))
	for s := range ref {
		ref[s] = make([]float64, R)
	}
	if err := ClusterCounts(ids, opts, func(_, r int, counts []int) {
		w := make([]float64, n)
		for i, c := range counts {
			w[i] = float64(c)
		}
		for s, st := range all {
			v := WeightedRatio(st.A.Num, st.A.Den, w)
			if st.paired() {
				v -= WeightedRatio(st.B.Num, st.B.Den, w)
			}
			ref[s][r] = v
		}
	}); err != nil {
		t.Fatal(err)
	}
	for s := range all {
		lo, hi, used, skipped := percentileInterval(ref[s], opts.Alpha)
		g := got[s]
		if math.Float64bits(g.Lo) != math.Float64bits(lo) || math.Float64bits(g.Hi) != math.Float64bits(hi) || g.Used != used || g.Skipped != skipped {
			t.Errorf("statistic %d: %+v, WeightedRatio per resample %v %v %d %d", s, g, lo, hi, used, skipped)
		}
	}
	for s, st := range all {
		// Copies: no vector shared with another statistic.
		c := RatioStat{A: Ratio{append([]float64(nil), st.A.Num...), append([]float64(nil), st.A.Den...)}}
		if st.paired() {
			c.B = Ratio{append([]float64(nil), st.B.Num...), append([]float64(nil), st.B.Den...)}
		}
		alone, err := BootstrapRatios(ids, []RatioStat{c}, opts)
		if err != nil {
			t.Fatal(err)
		}
		g, w := got[s], alone[0]
		if math.Float64bits(g.Lo) != math.Float64bits(w.Lo) || math.Float64bits(g.Hi) != math.Float64bits(w.Hi) ||
			math.Float64bits(g.Estimate) != math.Float64bits(w.Estimate) || g.Used != w.Used || g.Skipped != w.Skipped {
			t.Errorf("statistic %d: %+v, alone %+v", s, g, w)
		}
	}
}
