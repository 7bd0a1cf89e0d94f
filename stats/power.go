package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// pairedCells returns the probabilities of the two discordant cells for two
// judges on one negative: p10 (A accepts, B rejects) and p01 (the reverse),
// given their false-positive rates and the discordance R = p10 + p01. R == 0
// means the smallest discordance consistent with the marginals, |fprA−fprB|
// (one judge accepts a superset of what the other accepts). R must lie in
// [|fprA−fprB|, min(fprA+fprB, 2−fprA−fprB)] so that all four cells are
// probabilities. It also checks the sample size n and the level alpha of
// the power functions.
func pairedCells(fprA, fprB, discordance float64, n int, alpha float64) (p10, p01 float64, err error) {
	if !(fprA >= 0 && fprA <= 1) || !(fprB >= 0 && fprB <= 1) {
		return 0, 0, fmt.Errorf("paired power: false-positive rates %v, %v: must be in [0, 1]", fprA, fprB)
	}
	d := fprA - fprB
	if discordance == 0 {
		discordance = math.Abs(d)
	}
	hi := math.Min(fprA+fprB, 2-fprA-fprB)
	const eps = 1e-12
	if !(discordance >= math.Abs(d)-eps && discordance <= hi+eps) {
		return 0, 0, fmt.Errorf("paired power: discordance %v: must be in [%v, %v] for rates %v and %v", discordance, math.Abs(d), hi, fprA, fprB)
	}
	if n < 1 {
		return 0, 0, fmt.Errorf("paired power: n %d: need at least 1 negative", n)
	}
	if !(alpha > 0 && alpha < 1) {
		return 0, 0, fmt.Errorf("paired power: alpha %v: must be in (0, 1)", alpha)
	}
	return math.Max(0, (discordance+d)/2), math.Max(0, (discordance-d)/2), nil
}

// PairedPower returns the simulated power of the two-sided exact McNemar
// test (McNemarExact(b, c) <= alpha) to detect a difference between two
// judges' false-positive rates fprA and fprB when both judge the same n
// ground-truth negatives. discordance is the share of negatives on which the
// judges disagree; 0 means the minimum consistent with the marginals,
// |fprA−fprB|, which gives the highest power (see pairedCells for the valid
// range). Each of sims simulations (0 means 2000) draws n negatives from the
// four-cell distribution with a PCG stream derived from (seed, simulation
// index), so the result is reproducible. PairedPowerExact gives the value
// the simulation estimates. It fails on invalid arguments, and with
// ErrStopped soon after stop is closed (pass ctx.Done(); nil never stops).
func PairedPower(stop <-chan struct{}, fprA, fprB float64, n int, discordance, alpha float64, sims int, seed uint64) (float64, error) {
	p10, p01, err := pairedCells(fprA, fprB, discordance, n, alpha)
	if err != nil {
		return 0, err
	}
	sims = cmp.Or(sims, 2000)
	if sims < 0 {
		return 0, fmt.Errorf("paired power: sims %d: must be positive", sims)
	}
	src := &rand.PCG{}
	rng := rand.New(src)
	reject := 0
	for s := range sims {
		if stopped(stop) {
			return 0, ErrStopped
		}
		reseed(src, seed, s)
		b, c := 0, 0
		for range n {
			u := rng.Float64()
			switch {
			case u < p10:
				b++
			case u < p10+p01:
				c++
			}
		}
		if McNemarExact(b, c) <= alpha {
			reject++
		}
	}
	return float64(reject) / float64(sims), nil
}

// PairedPowerExact returns the exact power that PairedPower estimates: with
// D ~ Bin(n, p10+p01) discordant negatives and b | D ~ Bin(D, p10/(p10+p01)),
// the probability that McNemarExact(b, D−b) <= alpha, summed over about
// n·√n log-space terms. It fails on invalid arguments, and with ErrStopped
// soon after stop is closed (nil never stops).
func PairedPowerExact(stop <-chan struct{}, fprA, fprB float64, n int, discordance, alpha float64) (float64, error) {
	p10, p01, err := pairedCells(fprA, fprB, discordance, n, alpha)
	if err != nil {
		return 0, err
	}
	r := p10 + p01
	if r == 0 {
		return 0, nil // no discordant pairs ever: the test never rejects
	}
	q := p10 / r
	power := 0.0
	for d := 1; d <= n; d++ {
		if d&1023 == 0 && stopped(stop) {
			return 0, ErrStopped
		}
		logPD := logBinomial(n, d) + float64(d)*math.Log(r)
		if r < 1 {
			logPD += float64(n-d) * math.Log1p(-r)
		} else if d < n {
			continue
		}
		if logPD < -50 { // contributes less than 2e-22
			continue
		}
		c := mcnemarCritical(d, alpha)
		if c < 0 {
			continue
		}
		// Reject when min(b, d−b) <= c; the two tails are disjoint as c < d/2.
		pr := binomCDF(c, d, q) + binomCDF(c, d, 1-q)
		power += math.Exp(logPD) * math.Min(1, pr)
	}
	return math.Min(1, power), nil
}

// mcnemarCritical returns the largest m with McNemarExact(m, d−m) <= alpha,
// or −1 when no split of d discordant pairs is significant. The p-value
// grows with m on [0, d/2] (where it is 1), so binary search applies.
func mcnemarCritical(d int, alpha float64) int {
	return sort.Search(d/2+1, func(m int) bool { return McNemarExact(m, d-m) > alpha }) - 1
}
