package stats

import "math"

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
