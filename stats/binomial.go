package stats

import "math"

// logBinomial returns log C(n, k) for 0 <= k <= n.
func logBinomial(n, k int) float64 {
	a, _ := math.Lgamma(float64(n) + 1)
	b, _ := math.Lgamma(float64(k) + 1)
	c, _ := math.Lgamma(float64(n-k) + 1)
	return a - b - c
}

// logHalfBinomLowerTail returns log P(X <= m) for X ~ Bin(n, 1/2) and
// 0 <= m <= n/2. It evaluates the largest term once with log-gamma and sums
// the others by the ratio recurrence t(i−1)/t(i) = i/(n−i+1) <= 1, so it
// neither overflows nor underflows before the final exp.
func logHalfBinomLowerTail(m, n int) float64 {
	logTop := logBinomial(n, m) - float64(n)*math.Ln2
	sum, t := 1.0, 1.0
	for i := m; i > 0; i-- {
		t *= float64(i) / float64(n-i+1)
		sum += t
		if t < sum*1e-17 {
			break
		}
	}
	return logTop + math.Log(sum)
}

// binomCDF returns P(X <= c) for X ~ Bin(n, q), summing probability terms in
// log space. It handles q == 0, q == 1 and c outside [0, n].
func binomCDF(c, n int, q float64) float64 {
	switch {
	case c < 0:
		return 0
	case c >= n:
		return 1
	case q <= 0:
		return 1
	case q >= 1:
		return 0
	}
	logq, log1q := math.Log(q), math.Log1p(-q)
	// Terms are log C(n,i) + i log q + (n−i) log(1−q), built by recurrence.
	lt := float64(n) * log1q
	maxLog := lt
	logs := make([]float64, 0, c+1)
	logs = append(logs, lt)
	for i := 0; i < c; i++ {
		lt += math.Log(float64(n-i)/float64(i+1)) + logq - log1q
		logs = append(logs, lt)
		maxLog = math.Max(maxLog, lt)
	}
	sum := 0.0
	for _, l := range logs {
		sum += math.Exp(l - maxLog)
	}
	return math.Min(1, math.Exp(maxLog+math.Log(sum)))
}

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
