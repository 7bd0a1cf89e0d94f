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

// Coincidences is the coincidence matrix of Krippendorff's α over K
// nominal values (Krippendorff 2011, "Computing Krippendorff's
// Alpha-Reliability"): O[c*K+k] sums, over units with m ≥ 2 pairable
// values, n_uc·n_uk/(m−1) for c ≠ k and n_uc·(n_uc−1)/(m−1) for c = k.
// Missing values (a coder who gave none, a parse error) are simply not
// counted, so units may have any number of values. Matrices of disjoint
// units add.
type Coincidences struct {
	K     int
	O     []float64
	Units int // units with two or more values
}

// NewCoincidences returns an empty matrix over k values.
func NewCoincidences(k int) Coincidences {
	return Coincidences{K: k, O: make([]float64, k*k)}
}

// AddUnit adds one unit given by the number of values it received of each
// kind (counts[c], len K); a unit with fewer than two is not pairable and
// adds nothing.
func (c *Coincidences) AddUnit(counts []int) {
	m := 0
	for _, n := range counts {
		m += n
	}
	if m < 2 {
		return
	}
	c.Units++
	w := 1 / float64(m-1)
	for a, na := range counts {
		for b, nb := range counts {
			if a == b {
				c.O[a*c.K+b] += float64(na*(na-1)) * w
			} else {
				c.O[a*c.K+b] += float64(na*nb) * w
			}
		}
	}
}

// AddScaled adds w times o (a resampled cluster counted w times).
func (c *Coincidences) AddScaled(o Coincidences, w float64) {
	for i, x := range o.O {
		c.O[i] += w * x
	}
	c.Units += int(w) * o.Units
}

// Alpha returns nominal Krippendorff's α = 1 − D_o/D_e from the matrix:
//
//	α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k,  n_c = Σ_k o_ck, n = Σ_c n_c
//
// NaN when no unit is pairable or every pairable value is the same (no
// variation: D_e = 0).
func (c Coincidences) Alpha() float64 {
	nc := make([]float64, c.K)
	n, off := 0.0, 0.0
	for a := range c.K {
		for b := range c.K {
			x := c.O[a*c.K+b]
			nc[a] += x
			if a != b {
				off += x
			}
		}
		n += nc[a]
	}
	var exp float64
	for a := range c.K {
		for b := range c.K {
			if a != b {
				exp += nc[a] * nc[b]
			}
		}
	}
	if n <= 1 || exp == 0 {
		return math.NaN()
	}
	return 1 - (n-1)*off/exp
}

// ClusterAlpha returns α over every cluster's units (per[i] the matrix of
// the units of cluster ids[i]) with its percentile cluster-bootstrap
// interval: clusters (tasks) are resampled with replacement and their
// matrices summed, as ClusterBootstrap draws them. A resample without
// variation is skipped.
func ClusterAlpha(ids []string, per []Coincidences, opts BootstrapOptions) (Interval, error) {
	if len(per) == 0 {
		return Interval{Estimate: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}, nil
	}
	k := per[0].K
	return ClusterBootstrap(ids, func(idx []int) float64 {
		sum := NewCoincidences(k)
		for _, i := range idx {
			sum.AddScaled(per[i], 1)
		}
		return sum.Alpha()
	}, opts)
}
