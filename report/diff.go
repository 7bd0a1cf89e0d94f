package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/trustlake/trustlake/stats"
)

// PairedSide counts the discordant pairs of one judge × condition on one
// ground-truth class, current (A) against baseline (B) on the same
// episodes: B is accepted now and rejected in the baseline, C the reverse;
// CI is the paired task-cluster bootstrap interval of the rate difference.
type PairedSide struct {
	B, C, N int
	CI      Interval
}

// Paired is the paired comparison of one judge × condition with its
// baseline: Neg on GT failures (the FPR), Pos on GT passes (the TPR).
type Paired struct {
	Neg, Pos PairedSide
}

// Diff sets the Change of every estimate of cur that base also has, and
// cur's Summary. paired, keyed by JUDGE@CONDITION, holds paired counts for
// the judge × conditions whose episodes are the same on both sides: their
// FPR, TPR and inflation are tested with the exact McNemar test; every
// other proportion with the two-proportion z test, inflation without
// pairs with the Welch z test, and κ, claim sway and ROC AUC are not
// tested (their change is shown, never called significant). A change is
// significant when p < alpha; a regression is a significant change in the
// bad direction (FPR, FDR, uncertain and parse-error rates up; TPR, κ,
// self-consistency and trusted rate down; inflation away from zero).
func Diff(cur, base *Document, paired map[string]Paired, alpha float64) {
	old := map[string]namedEstimate{}
	for _, ne := range base.estimates() {
		old[ne.key()] = ne
	}
	sum := Summary{Alpha: Num(alpha)}
	var regressions, changes []string
	for _, ne := range cur.estimates() {
		b, ok := old[ne.key()]
		if !ok || !b.e.Value.Defined() {
			continue
		}
		c := change(ne, b, paired, alpha)
		ne.e.Change = c
		sum.Compared++
		if c.Test != TestNone {
			sum.Tested++
		}
		if c.Significant {
			sum.SignificantChanges++
			changes = append(changes, fmt.Sprintf("%s %+.3f (p=%s)", ne.key(), float64(c.Delta), pString(c.P)))
		}
		if c.Regression {
			sum.Regressions++
			regressions = append(regressions, ne.key())
		}
	}
	switch {
	case sum.SignificantChanges == 0:
		sum.Line = fmt.Sprintf("No significant change against the baseline (%d figures compared, %d tested at alpha %g).", sum.Compared, sum.Tested, alpha)
	default:
		sum.Line = fmt.Sprintf("%d significant change(s), %d regression(s) against the baseline (%d figures compared, %d tested at alpha %g): %s.",
			sum.SignificantChanges, sum.Regressions, sum.Compared, sum.Tested, alpha, strings.Join(first(changes, 5), "; "))
	}
	cur.Summary = sum
}

func first(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
}

func pString(p Num) string {
	if !p.Defined() {
		return "-"
	}
	if p < 0.001 {
		return fmt.Sprintf("%.1e", float64(p))
	}
	return fmt.Sprintf("%.3f", float64(p))
}

// change compares the estimate ne of the current report with b of the
// baseline.
func change(ne, b namedEstimate, paired map[string]Paired, alpha float64) *Change {
	c := &Change{Baseline: b.e.Value, Delta: ne.e.Value - b.e.Value, Test: TestNone, P: NaN(), CI: NoInterval()}
	if p, ok := paired[ne.jc]; ok && ne.jc != "" {
		var side PairedSide
		switch ne.name {
		case "fpr":
			side = p.Neg
		case "tpr":
			side = p.Pos
		default: // inflation: acceptance over all episodes (the ground truth is the same on both sides)
			side = PairedSide{B: p.Neg.B + p.Pos.B, C: p.Neg.C + p.Pos.C, N: p.Neg.N + p.Pos.N, CI: NoInterval()}
		}
		c.Test, c.P, c.CI, c.NPairs = TestMcNemar, Num(stats.McNemarExact(side.B, side.C)), side.CI, side.N
	} else if ne.m.n > 0 && b.m.n > 0 {
		var t stats.TwoSample
		if ne.m.proportion {
			t = stats.TwoProportionZ(int(ne.m.sum), ne.m.n, int(b.m.sum), b.m.n, alpha)
			c.Test = TestTwoProp
		} else {
			t = stats.WelchZ(ne.m.sum, ne.m.sumSq, ne.m.n, b.m.sum, b.m.sumSq, b.m.n, alpha)
			c.Test = TestWelch
		}
		c.P, c.CI = Num(t.P), Interval{Num(t.Lo), Num(t.Hi)}
		if math.IsNaN(t.P) {
			c.Test = TestNone
		}
	}
	c.Significant = c.Test != TestNone && c.P.Defined() && float64(c.P) < alpha
	if c.Significant && c.Delta.Defined() {
		switch {
		case ne.worse > 0:
			c.Regression = c.Delta > 0
		case ne.worse < 0:
			c.Regression = c.Delta < 0
		default:
			c.Regression = math.Abs(float64(ne.e.Value)) > math.Abs(float64(b.e.Value))
		}
	}
	return c
}
