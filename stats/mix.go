package stats

import "math"

// MixDifference compares how two groups of items spread over categories
// (trustlake rate: labelled and unlabelled episodes over tasks, or over
// agents). Under the assumption that the labelled items are a random
// subset, both follow one distribution.
type MixDifference struct {
	TV        float64 // total variation distance ½ Σ |a_k/Σa − b_k/Σb|
	ChiSquare float64 // Pearson's χ² of the 2 × K contingency table
	DF        int     // K' − 1, K' the categories with a non-zero total
	P         float64 // upper tail of χ²(DF) at ChiSquare; NaN when DF is 0
}

// CompareMix returns the difference between the category counts a and b
// (same length, one entry per category): the total variation distance and
// Pearson's χ² test of homogeneity (scipy.stats.chi2_contingency with
// correction=False: no Yates correction, even on a 2 × 2 table).
// Categories with no item in either group are left out.
// All fields are NaN when either group is empty.
func CompareMix(a, b []float64) MixDifference {
	var sa, sb float64
	for i := range a {
		sa += a[i]
		sb += b[i]
	}
	nan := math.NaN()
	if sa <= 0 || sb <= 0 {
		return MixDifference{TV: nan, ChiSquare: nan, P: nan}
	}
	out := MixDifference{}
	total := sa + sb
	k := 0
	for i := range a {
		col := a[i] + b[i]
		if col == 0 {
			continue
		}
		k++
		out.TV += math.Abs(a[i]/sa-b[i]/sb) / 2
		for _, g := range [2][2]float64{{a[i], sa}, {b[i], sb}} {
			e := g[1] * col / total
			out.ChiSquare += (g[0] - e) * (g[0] - e) / e
		}
	}
	out.DF = k - 1
	out.P = nan
	if out.DF > 0 {
		out.P = chiSquareTail(out.ChiSquare, float64(out.DF))
	}
	return out
}

// chiSquareTail returns P(χ²(df) > x), the regularised upper incomplete
// gamma function Q(df/2, x/2): a series below a+1, Lentz's continued
// fraction above (Numerical Recipes §6.2), to about 1e-14 relative.
func chiSquareTail(x, df float64) float64 {
	a, z := df/2, x/2
	if z <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(-z + a*math.Log(z) - lg)
	if z < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 10000; n++ {
			term *= z / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return max(1-front*sum, 0)
	}
	const tiny = 1e-300
	b := z + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return front * h
}
