package stats

import "math"

// CohenKappa returns Cohen's κ for a 2×2 table of judge against ground
// truth: tp (both success), fp (judge success, GT failure), fn (judge
// failure, GT success) and tn (both failure). It returns NaN when the table
// is empty, a count is negative, or chance agreement is 1 (both raters
// constant on the same category), where κ is undefined.
func CohenKappa(tp, fp, fn, tn int) float64 {
	if tp < 0 || fp < 0 || fn < 0 || tn < 0 {
		return math.NaN()
	}
	n := float64(tp + fp + fn + tn)
	if n == 0 {
		return math.NaN()
	}
	po := float64(tp+tn) / n
	judgeYes, gtYes := float64(tp+fp)/n, float64(tp+fn)/n
	pe := judgeYes*gtYes + (1-judgeYes)*(1-gtYes)
	if pe >= 1 {
		return math.NaN()
	}
	return (po - pe) / (1 - pe)
}

// FleissKappa returns Fleiss' κ for counts[i][j], the number of raters
// (for trustlake: runs of one judge) that put subject i (an episode) in
// category j. Rows may have different sums: the function uses the usual
// generalisation in which subject i's observed agreement is
// Σ_j n_ij(n_ij−1) / (n_i(n_i−1)), P̄ is their unweighted mean, and category
// shares p_j pool all ratings; with equal row sums this is exactly Fleiss'
// (1971) κ (and statsmodels' fleiss_kappa). Subjects with fewer than two
// ratings carry no agreement information and are dropped. It returns NaN when
// fewer than one subject remains, a count is negative, rows have different
// lengths, or expected agreement is 1 (all ratings in one category).
func FleissKappa(counts [][]int) float64 {
	if len(counts) == 0 {
		return math.NaN()
	}
	cats := len(counts[0])
	shares := make([]float64, cats)
	var sumP, total float64
	subjects := 0
	for _, row := range counts {
		if len(row) != cats {
			return math.NaN()
		}
		ni, agree := 0, 0.0
		for _, v := range row {
			if v < 0 {
				return math.NaN()
			}
			ni += v
			agree += float64(v) * float64(v-1)
		}
		if ni < 2 {
			continue
		}
		subjects++
		sumP += agree / (float64(ni) * float64(ni-1))
		for j, v := range row {
			shares[j] += float64(v)
		}
		total += float64(ni)
	}
	if subjects == 0 {
		return math.NaN()
	}
	pe := 0.0
	for _, s := range shares {
		pe += (s / total) * (s / total)
	}
	if pe >= 1 {
		return math.NaN()
	}
	pbar := sumP / float64(subjects)
	return (pbar - pe) / (1 - pe)
}
