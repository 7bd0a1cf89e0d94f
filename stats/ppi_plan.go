package stats

import (
	"fmt"
	"math"
)

// PPIAgreement describes a binary judge against binary ground truth: the
// ground-truth success rate P and the judge's true- and false-positive
// rates (what trustlake metrics measures).
type PPIAgreement struct {
	P, TPR, FPR float64
}

// moments returns Var(Y), Var(f) and Cov(Y, f) of one episode:
// q = P·TPR + (1−P)·FPR is the judge's acceptance rate, Var(Y) = P(1−P),
// Var(f) = q(1−q), Cov(Y, f) = P·TPR − P·q.
func (a PPIAgreement) moments() (vy, vf, cov float64) {
	q := a.P*a.TPR + (1-a.P)*a.FPR
	return a.P * (1 - a.P), q * (1 - q), a.P*a.TPR - a.P*q
}

// Rho returns the correlation of ground truth and verdict (the "PPI
// correlation" of ppi-python's power analysis); NaN when either is
// constant.
func (a PPIAgreement) Rho() float64 {
	vy, vf, cov := a.moments()
	return cov / math.Sqrt(vy*vf)
}

// ppiVariance returns the variance of θ_λ with n labelled and N
// unlabelled episodes (N = 0: unlimited):
//
//	Var = (Var(Y) − 2λ·Cov + λ²·Var(f))/n + λ²·Var(f)/N,
//
// with λ the given one, or when tuned, PPI++'s
// clip(Cov/((1 + n/N)·Var(f)), 0, 1), and that λ.
func (a PPIAgreement) ppiVariance(n, unlabelled float64, lambda float64, tuned bool) (float64, float64) {
	vy, vf, cov := a.moments()
	ratio := 0.0 // n/N
	if unlabelled > 0 {
		ratio = n / unlabelled
	}
	if tuned {
		lambda = 0
		if vf > 0 {
			lambda = min(max(cov/((1+ratio)*vf), 0), 1)
		}
	}
	v := (vy - 2*lambda*cov + lambda*lambda*vf) / n
	if unlabelled > 0 {
		v += lambda * lambda * vf / unlabelled
	}
	return v, lambda
}

// PPILabelPlan is how many ground-truth labels each estimator of a
// success rate needs for a normal interval of half-width at most
// HalfWidth. A count of 0 means out of reach with the given episodes.
type PPILabelPlan struct {
	Rho       float64 // correlation of ground truth and verdict
	Classical int     // ground truth alone: ⌈z²·P(1−P)/W²⌉
	PPI       int     // PPI, λ = 1
	Tuned     int     // PPI++, λ tuned
	Lambda    float64 // PPI++'s λ at Tuned labels
}

// PPILabelsForHalfWidth returns the labels each estimator needs for a
// half-width w at level 1−alpha when the judge gives verdicts on episodes
// judged episodes in all (labelled ones included; 0 means unlimited), so
// that N = episodes − n are unlabelled. Each count is the smallest n with
// z·√Var(n) ≤ w (ppiVariance), by bisection when episodes are unlimited
// (Var then decreases with n), else by a scan over n < episodes.
// Without clipping of λ the tuned count is the closed form
// n = n₀·M·(1−ρ²)/(M − ρ²·n₀) (n₀ = Classical, M = episodes; n₀·(1−ρ²)
// when M is unlimited), ppi-python's ppi_power with n_max = M.
func PPILabelsForHalfWidth(a PPIAgreement, w, alpha float64, episodes int) (PPILabelPlan, error) {
	if !(a.P >= 0 && a.P <= 1 && a.TPR >= 0 && a.TPR <= 1 && a.FPR >= 0 && a.FPR <= 1) {
		return PPILabelPlan{}, fmt.Errorf("ppi plan: rate %v, tpr %v, fpr %v: each must be in [0, 1]", a.P, a.TPR, a.FPR)
	}
	if !(w > 0) || !(alpha > 0 && alpha < 1) || episodes < 0 {
		return PPILabelPlan{}, fmt.Errorf("ppi plan: half-width %v, alpha %v, episodes %d: need half-width > 0, alpha in (0, 1), episodes >= 0", w, alpha, episodes)
	}
	z := zTwoSided(alpha)
	limit := (w / z) * (w / z) // the largest variance allowed
	vy, _, _ := a.moments()
	out := PPILabelPlan{Rho: a.Rho()}
	out.Classical = max(int(math.Ceil(vy/limit-1e-9)), 1)
	if episodes > 0 && out.Classical > episodes {
		out.Classical = 0
	}
	M := float64(episodes)
	smallest := func(tuned bool) (int, float64) {
		variance := func(n int) (float64, float64) {
			N := 0.0
			if episodes > 0 {
				N = M - float64(n)
			}
			return a.ppiVariance(float64(n), N, 1, tuned)
		}
		if episodes > 0 {
			// With M episodes, PPI's variance is U-shaped in n (few
			// unlabelled left near M): scan for the first n that fits.
			for n := 1; n < episodes; n++ { // at least one unlabelled
				if v, lam := variance(n); v <= limit {
					return n, lam
				}
			}
			return 0, math.NaN()
		}
		// Unlimited episodes: every λ gives c(λ)/n, so Var decreases in n.
		n := SmallestN(1<<41, func(n int) bool { v, _ := variance(n); return v <= limit })
		if n == 0 {
			return 0, math.NaN()
		}
		_, lam := variance(n)
		return n, lam
	}
	out.PPI, _ = smallest(false)
	out.Tuned, out.Lambda = smallest(true)
	return out, nil
}
