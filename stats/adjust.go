package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Multiple-testing adjustments of AdjustP.
const (
	AdjustBH   = "bh"   // Benjamini–Hochberg step-up: controls the false discovery rate
	AdjustHolm = "holm" // Holm step-down: controls the family-wise error rate
	AdjustNone = "none" // raw p-values
)

// Adjustments lists the methods AdjustP knows.
var Adjustments = []string{AdjustBH, AdjustHolm, AdjustNone}

// AdjustP returns the adjusted p-values of a family of tests, in the order
// of p: Benjamini–Hochberg (1995) p̃(i) = min over j ≥ i of m·p(j)/j, or
// Holm (1979) p̃(i) = max over j ≤ i of min(1, (m−j+1)·p(j)), p(1) ≤ … ≤
// p(m) sorted, capped at 1; AdjustNone copies p. NaN entries (figures not
// tested) stay NaN and are not counted in m. A test is rejected at level q
// when its adjusted p is ≤ q: the same decisions as statsmodels'
// multipletests (methods fdr_bh and holm), whose adjusted values these
// equal.
func AdjustP(method string, p []float64) ([]float64, error) {
	out := make([]float64, len(p))
	var idx []int
	for i, x := range p {
		out[i] = math.NaN()
		if !math.IsNaN(x) {
			idx = append(idx, i)
		}
	}
	// Stable order: ties keep their input order.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	m := float64(len(idx))
	switch method {
	case AdjustNone:
		for _, i := range idx {
			out[i] = p[i]
		}
	case AdjustBH:
		running := 1.0
		for k := len(idx) - 1; k >= 0; k-- {
			i := idx[k]
			running = math.Min(running, m*p[i]/float64(k+1))
			out[i] = running
		}
	case AdjustHolm:
		running := 0.0
		for k, i := range idx {
			running = math.Max(running, math.Min(1, (m-float64(k))*p[i]))
			out[i] = running
		}
	default:
		return nil, fmt.Errorf("adjust %q: want one of bh, holm, none", method)
	}
	return out, nil
}
