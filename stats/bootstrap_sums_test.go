package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestBootstrapSumsAsClusterBootstrap: every statistic of BootstrapSums is,
// bit for bit, ClusterBootstrap of the same function of SumDot sums over
// the group's clusters (counts summed over the drawn clusters only, floats
// and huge counts by SumDot), whatever the workers.
func TestBootstrapSumsAsClusterBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 29
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("task-%02d", i)
	}
	var groups []SumGroup
	var prev []int
	for g := range 12 {
		var clusters []int
		switch {
		case g >= 4 && g%2 == 0: // the clusters of the group before (sharing SumDot's layout)
			clusters = prev
		case g >= 4 && g%4 == 1: // one or two clusters far apart (a stratum per task)
			clusters = []int{rng.IntN(n / 2)}
			if g%8 == 1 {
				clusters = append(clusters, n/2+rng.IntN(n/2))
			}
		default:
			for c := range n {
				if g == 0 || rng.IntN(3) > 0 {
					clusters = append(clusters, c)
				}
			}
		}
		prev = clusters
		m := len(clusters)
		if g == 0 {
			clusters = nil
		}
		cols := make([][]float64, 3)
		for c := range cols {
			cols[c] = make([]float64, m)
			for k := range m {
				switch {
				case c == 2: // a float column
					cols[c][k] = rng.Float64() * math.Pow(2, float64(rng.IntN(40)))
				case g == 3 && c == 1: // counts too large to sum exactly in any order
					cols[c][k] = float64(rng.Int64N(1 << 52))
				default:
					cols[c][k] = float64(rng.IntN(20))
				}
			}
		}
		groups = append(groups, SumGroup{Clusters: clusters, Cols: cols, Values: 3, Eval: func(s, out []float64) {
			out[0] = s[0] / s[1] // NaN (skipped) when both are 0
			out[1] = s[2]/(s[0]+1) - s[1]
			out[2] = s[2] // as summed
		}})
	}
	for _, workers := range []int{1, 3} {
		opts := BootstrapOptions{Resamples: 300, Seed: 9, Workers: workers}
		got, err := BootstrapSums(ids, groups, opts)
		if err != nil {
			t.Fatal(err)
		}
		for g, gr := range groups {
			for v := range gr.Values {
				want, err := ClusterBootstrap(ids, func(idx []int) float64 {
					counts := make([]float64, n)
					for _, i := range idx {
						counts[i]++
					}
					w := counts
					if gr.Clusters != nil {
						w = make([]float64, len(gr.Clusters))
						for k, c := range gr.Clusters {
							w[k] = counts[c]
						}
					}
					sums := make([]float64, len(gr.Cols))
					for c, col := range gr.Cols {
						sums[c] = SumDot(w, col)
					}
					out := make([]float64, gr.Values)
					gr.Eval(sums, out)
					return out[v]
				}, opts)
				if err != nil {
					t.Fatal(err)
				}
				iv := got[g][v]
				if math.Float64bits(iv.Lo) != math.Float64bits(want.Lo) || math.Float64bits(iv.Hi) != math.Float64bits(want.Hi) ||
					iv.Used != want.Used || iv.Skipped != want.Skipped || iv.OK != want.OK {
					t.Errorf("workers %d, group %d, value %d: %+v, ClusterBootstrap %+v", workers, g, v, iv, want)
				}
			}
		}
	}
}
