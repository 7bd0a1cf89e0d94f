package stats

import "math"

// McNemarExact returns the two-sided exact McNemar p-value for b and c
// discordant pairs (b: first rater yes and second no; c: the reverse):
// min(1, 2·P(X <= min(b, c))) with X ~ Bin(b+c, 1/2). This equals
// statsmodels' mcnemar(table, exact=True). It returns 1 when b+c == 0 and NaN
// for negative counts. The tail is summed in log space, so b+c in the
// millions is fine.
func McNemarExact(b, c int) float64 {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n := b + c
	if n == 0 {
		return 1
	}
	m := min(b, c)
	if 2*m >= n { // b == c: the tail holds at least half the mass
		return 1
	}
	return math.Min(1, 2*math.Exp(logHalfBinomLowerTail(m, n)))
}
