package report

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/trustlake/trustlake/stats"
)

// PairedSide is the paired comparison of one judge × condition with its
// baseline on the same episodes of one ground-truth class (or all): B
// episodes accepted now and rejected in the baseline, C the reverse, N
// pairs; CI the paired task-cluster bootstrap interval of the rate
// difference; SE the cluster-robust standard error of the difference
// (B − C)/N over tasks (stats.MeanCR1 on each task's b − c).
type PairedSide struct {
	B, C, N int
	CI      Interval
	SE      float64
}

// Paired is the paired comparison of one judge × condition with its
// baseline: Neg on GT failures (the FPR), Pos on GT passes (the TPR), All
// on both (the acceptance rate, whose change is the inflation's).
type Paired struct {
	Neg, Pos, All PairedSide
}

// DiffOptions configure Diff.
type DiffOptions struct {
	// Alpha is the level of the intervals of both reports (their
	// bootstrap intervals give the standard errors of unpaired tests); 0
	// means 0.05. BaseAlpha is the baseline's when it differs; 0 means
	// Alpha.
	Alpha, BaseAlpha float64
	// Adjust is the family control: stats.AdjustBH (default),
	// stats.AdjustHolm or stats.AdjustNone.
	Adjust string
	// Q is the level of the change tests: the false discovery rate under
	// BH, the family-wise error rate under Holm, each test's level under
	// none; 0 means 0.05.
	Q float64
}

func (o DiffOptions) withDefaults() DiffOptions {
	o.Alpha = cmp.Or(o.Alpha, 0.05)
	o.BaseAlpha = cmp.Or(o.BaseAlpha, o.Alpha)
	o.Adjust = cmp.Or(o.Adjust, stats.AdjustBH)
	o.Q = cmp.Or(o.Q, 0.05)
	return o
}

// Diff sets the Change of every estimate of cur that base also has, and
// cur's Summary. paired, keyed by JUDGE@CONDITION, holds the paired
// comparisons of the judge × conditions whose episodes are the same on
// both sides: their FPR, TPR and inflation are tested paired, with the
// cluster-robust SE of the paired difference over tasks. Other figures are
// tested unpaired, with each report's task-cluster bootstrap interval
// read as a standard error (its width over 2·z(1−α/2)): a proportion with
// the pooled two-proportion z test times the design effect those SEs
// imply (stats.ClusteredTwoProportionZ), the inflation with z = Δ /
// √(se_cur² + se_base²) (the nights are independent). Proportions without
// a bootstrap interval (trusted rate) take the two-proportion z test; κ,
// claim sway, ROC AUC and the reward models' held-out rates are not tested
// (their change is shown, never called significant: the held-out rates'
// intervals hold the cross-fitted threshold fixed, which moves from night
// to night). The raw p-values of the
// tested figures form one family, adjusted by opts.Adjust; a change is
// significant when its adjusted p ≤ opts.Q, and a regression is a
// significant change in the bad direction (FPR, FDR, uncertain and
// parse-error rates up; TPR, κ, self-consistency and trusted rate down;
// inflation away from zero). It fails only on an unknown Adjust.
func Diff(cur, base *Document, paired map[string]Paired, opts DiffOptions) error {
	opts = opts.withDefaults()
	old := map[string]namedEstimate{}
	for _, ne := range base.estimates() {
		old[ne.key()] = ne
	}
	sum := Summary{Alpha: Num(opts.Alpha), Adjust: opts.Adjust, Q: Num(opts.Q)}
	type compared struct {
		ne, b namedEstimate
	}
	var rows []compared
	var raw []float64
	for _, ne := range cur.estimates() {
		b, ok := old[ne.key()]
		if !ok || !b.e.Value.Defined() {
			continue
		}
		ne.e.Change = change(ne, b, paired, opts)
		rows = append(rows, compared{ne, b})
		p := math.NaN()
		if ne.e.Change.Test != TestNone {
			p = float64(ne.e.Change.P)
		}
		raw = append(raw, p)
	}
	adj, err := stats.AdjustP(opts.Adjust, raw)
	if err != nil {
		return err
	}
	var regressions, changes []string
	for i, r := range rows {
		c := r.ne.e.Change
		sum.Compared++
		if c.Test == TestNone {
			continue
		}
		sum.Tested++
		c.PAdjusted = Num(adj[i])
		if c.P.Defined() && float64(c.P) <= opts.Q {
			sum.SignificantRaw++
		}
		c.Significant = c.PAdjusted.Defined() && float64(c.PAdjusted) <= opts.Q
		c.Regression = c.Significant && c.Delta.Defined() && worse(r.ne, r.b)
		if c.Significant {
			sum.SignificantChanges++
			changes = append(changes, fmt.Sprintf("%s %+.3f (p=%s, adjusted %s)", r.ne.key(), float64(c.Delta), pString(c.P), pString(c.PAdjusted)))
		}
		if c.Regression {
			sum.Regressions++
			regressions = append(regressions, r.ne.key())
		}
	}
	family := fmt.Sprintf("%d figures compared, %d tested, %s at q %g", sum.Compared, sum.Tested, adjustNames[opts.Adjust], opts.Q)
	switch {
	case sum.SignificantChanges == 0:
		sum.Line = fmt.Sprintf("No significant change against the baseline (%s).", family)
	default:
		sum.Line = fmt.Sprintf("%d significant change(s), %d regression(s) against the baseline (%s): %s.",
			sum.SignificantChanges, sum.Regressions, family, strings.Join(first(changes, 5), "; "))
	}
	cur.Summary = sum
	return nil
}

// adjustNames are the readable names of the adjustments.
var adjustNames = map[string]string{stats.AdjustBH: "Benjamini–Hochberg", stats.AdjustHolm: "Holm", stats.AdjustNone: "unadjusted"}

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

// worse reports whether the change from b to ne is in the bad direction.
func worse(ne, b namedEstimate) bool {
	delta := ne.e.Value - b.e.Value
	switch {
	case ne.worse > 0:
		return delta > 0
	case ne.worse < 0:
		return delta < 0
	}
	return math.Abs(float64(ne.e.Value)) > math.Abs(float64(b.e.Value))
}

// bootSE is the standard error a percentile bootstrap interval at level
// alpha implies under normality: its width over 2·z(1−α/2). NaN when the
// interval is undefined.
func bootSE(iv Interval, alpha float64) float64 {
	if !iv.Defined() {
		return math.NaN()
	}
	return float64(iv[1]-iv[0]) / (2 * stats.NormalQuantile(1-alpha/2))
}

// change compares the estimate ne of the current report with b of the
// baseline (raw p; Diff adjusts and sets the flags).
func change(ne, b namedEstimate, paired map[string]Paired, opts DiffOptions) *Change {
	c := &Change{Baseline: b.e.Value, Delta: ne.e.Value - b.e.Value, Test: TestNone, P: NaN(), PAdjusted: NaN(), SE: NaN(), CI: NoInterval()}
	if p, ok := paired[ne.jc]; ok && ne.jc != "" {
		side := p.All
		switch ne.name {
		case "fpr":
			side = p.Neg
		case "tpr":
			side = p.Pos
		}
		_, pv := stats.ZTest(float64(c.Delta), side.SE)
		c.Test, c.Paired, c.P, c.SE, c.CI, c.NPairs = TestPairedCluster, true, Num(pv), Num(side.SE), side.CI, side.N
		if math.IsNaN(pv) {
			c.Test = TestNone
		}
		return c
	}
	seA, seB := bootSE(ne.e.Boot, opts.Alpha), bootSE(b.e.Boot, opts.BaseAlpha)
	switch {
	case !ne.m.tested:
	case ne.m.proportion && ne.m.n > 0 && b.m.n > 0 && !math.IsNaN(seA) && !math.IsNaN(seB):
		kA, kB := int(ne.m.sum), int(b.m.sum)
		t := stats.ClusteredTwoProportionZ(kA, ne.m.n, stats.DesignEffect(float64(ne.e.Value), seA, ne.m.n),
			kB, b.m.n, stats.DesignEffect(float64(b.e.Value), seB, b.m.n))
		c.Test, c.P = TestClusteredTwoProp, Num(t.P)
	case !ne.m.proportion && !math.IsNaN(seA) && !math.IsNaN(seB):
		_, pv := stats.ZTest(float64(c.Delta), math.Hypot(seA, seB))
		c.Test, c.P = TestBootZ, Num(pv)
	case ne.m.proportion && ne.m.n > 0 && b.m.n > 0:
		t := stats.TwoProportionZ(int(ne.m.sum), ne.m.n, int(b.m.sum), b.m.n, opts.Alpha)
		c.Test, c.P, c.CI = TestTwoProp, Num(t.P), Interval{Num(t.Lo), Num(t.Hi)}
	case !ne.m.proportion && ne.m.n > 0 && b.m.n > 0:
		t := stats.WelchZ(ne.m.sum, ne.m.sumSq, ne.m.n, b.m.sum, b.m.sumSq, b.m.n, opts.Alpha)
		c.Test, c.P, c.CI = TestWelch, Num(t.P), Interval{Num(t.Lo), Num(t.Hi)}
	}
	if c.Test == TestClusteredTwoProp || c.Test == TestBootZ { // normal interval from both bootstrap SEs
		se := math.Hypot(seA, seB)
		z := stats.NormalQuantile(1 - opts.Alpha/2)
		c.SE, c.CI = Num(se), Interval{Num(float64(c.Delta) - z*se), Num(float64(c.Delta) + z*se)}
	}
	if c.Test != TestNone && !c.P.Defined() {
		c.Test = TestNone
	}
	return c
}
