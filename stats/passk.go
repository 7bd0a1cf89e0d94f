package stats

import "math"

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
