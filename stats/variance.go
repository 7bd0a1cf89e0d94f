package stats

import "math"

// OneWayVariance returns method-of-moments (ANOVA) estimates of a one-way
// random-effects model y_ij = μ + a_i + e_ij, for trustlake's D4 repeat
// stability: groups[i] holds the repeated scores of task i. between is
// Var(a) = (MSB − MSW)/n₀ with n₀ = (N − Σ n_i²/N)/(k−1), the unbalanced
// design's effective group size; within is Var(e) = MSW; rho is the
// intraclass correlation between/(between+within), ICC(1).
//
// Empty groups are ignored; groups of one observation count towards the
// between-group mean square but add nothing within. A negative between
// estimate (MSB < MSW, less spread between tasks than chance) is truncated
// to 0, so rho is 0 then. All three are NaN with fewer than two non-empty
// groups or no within-group degrees of freedom (N − k == 0); rho is NaN when
// both components are 0 (all scores equal).
func OneWayVariance(groups [][]float64) (between, within, rho float64) {
	nan := math.NaN()
	var k, total int
	var sum float64
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		k++
		total += len(g)
		for _, y := range g {
			sum += y
		}
	}
	if k < 2 || total-k < 1 {
		return nan, nan, nan
	}
	N := float64(total)
	grand := sum / N
	var ssb, ssw, sumN2 float64
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		ni := float64(len(g))
		mean := 0.0
		for _, y := range g {
			mean += y
		}
		mean /= ni
		for _, y := range g {
			ssw += (y - mean) * (y - mean)
		}
		ssb += ni * (mean - grand) * (mean - grand)
		sumN2 += ni * ni
	}
	msb := ssb / float64(k-1)
	within = ssw / (N - float64(k))
	n0 := (N - sumN2/N) / float64(k-1)
	between = math.Max(0, (msb-within)/n0)
	if between+within == 0 {
		return between, within, nan
	}
	return between, within, between / (between + within)
}

// PassHatK returns τ-bench's pass^k: the mean over tasks of
// C(c_i, k)/C(n_i, k), the probability that k trials drawn without
// replacement from task i's n_i recorded trials (c_i of them successful) all
// succeed. Tasks with n_i < k cannot be scored and are excluded; the result
// is NaN when no task remains, when k < 1, when c and n differ in length, or
// when some task has c_i < 0 or c_i > n_i. Each ratio is evaluated as the
// product Π_{j<k} (c_i−j)/(n_i−j), so large n_i neither overflow nor lose
// precision.
func PassHatK(c, n []int, k int) float64 {
	if len(c) != len(n) || k < 1 {
		return math.NaN()
	}
	var sum float64
	tasks := 0
	for i := range c {
		if c[i] < 0 || c[i] > n[i] {
			return math.NaN()
		}
		if n[i] < k {
			continue
		}
		tasks++
		p := 1.0
		for j := 0; j < k && p > 0; j++ {
			p *= float64(c[i]-j) / float64(n[i]-j)
		}
		sum += p
	}
	if tasks == 0 {
		return math.NaN()
	}
	return sum / float64(tasks)
}
