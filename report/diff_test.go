package report

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/trustlake/trustlake/stats"
)

type significanceRef struct {
	TwoProportion []struct {
		KA, NA, KB, NB         int
		Alpha, Diff, P, Lo, Hi float64
	} `json:"two_proportion"`
	Welch []struct {
		FPA, FNA, NA, FPB, FNB, NB int
		Alpha, Diff, P, Lo, Hi     float64
	} `json:"welch"`
	McNemar []struct {
		B, C int
		P    float64
	} `json:"mcnemar"`
}

func readSignificanceRef(t *testing.T) significanceRef {
	b, err := os.ReadFile("testdata/significance.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref significanceRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.TwoProportion) == 0 || len(ref.Welch) == 0 || len(ref.McNemar) == 0 {
		t.Fatal("empty reference")
	}
	return ref
}

func close(got Num, want float64) bool {
	return math.Abs(float64(got)-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// oneJudge is a report with a single judge row with these counts.
func oneJudge(tp, fp, tn, fn int) *Document {
	n := tp + fp + tn + fn
	r := JudgeRow{Judge: "j", Condition: "c", TP: tp, FP: fp, TN: tn, FN: fn, NEpisodes: n,
		FPR: mkEst(float64(fp)/float64(fp+tn), 0, 1, fp, fp+tn), TPR: mkEst(float64(tp)/float64(tp+fn), 0, 1, tp, tp+fn),
		FDR:             mkEst(float64(fp)/float64(fp+tp), 0, 1, fp, fp+tp),
		Inflation:       Estimate{Value: Num(float64(fp-fn) / float64(n)), Wilson: NoInterval(), Boot: NoInterval()},
		Kappa:           Estimate{Value: 0.5, Wilson: NoInterval(), Boot: NoInterval()},
		SelfConsistency: mkEst(1, 0, 1, n, n), UncertainRate: mkEst(0, 0, 1, 0, n), ParseErrorRate: mkEst(0, 0, 1, 0, n)}
	return &Document{Judges: []JudgeRow{r}}
}

func TestDiffTwoProportionMatchesReference(t *testing.T) {
	for _, c := range readSignificanceRef(t).TwoProportion {
		cur, base := oneJudge(10, c.KA, c.NA-c.KA, 10), oneJudge(10, c.KB, c.NB-c.KB, 10)
		mustDiff(t, cur, base, nil, DiffOptions{Alpha: c.Alpha, Adjust: "none", Q: c.Alpha})
		ch := cur.Judges[0].FPR.Change
		if ch == nil || ch.Test != TestTwoProp {
			t.Fatalf("%+v: change %+v, want a two-proportion test", c, ch)
		}
		if !close(ch.Delta, c.Diff) || !close(ch.P, c.P) || !close(ch.CI[0], c.Lo) || !close(ch.CI[1], c.Hi) {
			t.Errorf("%d/%d vs %d/%d: delta %v p %v ci %v, want %v %v [%v, %v]", c.KA, c.NA, c.KB, c.NB, ch.Delta, ch.P, ch.CI, c.Diff, c.P, c.Lo, c.Hi)
		}
		if ch.Significant != (c.P < c.Alpha) {
			t.Errorf("%+v: significant = %v with p %v", c, ch.Significant, c.P)
		}
		if ch.Regression != (c.P < c.Alpha && c.Diff > 0) {
			t.Errorf("%+v: regression = %v (an FPR increase is a regression only when significant)", c, ch.Regression)
		}
	}
}

func TestDiffWelchMatchesReference(t *testing.T) {
	for _, c := range readSignificanceRef(t).Welch {
		// Inflation: fp false positives, fn false negatives out of n.
		cur := oneJudge(c.NA/2-c.FNA, c.FPA, c.NA-c.NA/2-c.FPA, c.FNA)
		base := oneJudge(c.NB/2-c.FNB, c.FPB, c.NB-c.NB/2-c.FPB, c.FNB)
		mustDiff(t, cur, base, nil, DiffOptions{Alpha: c.Alpha, Adjust: "none", Q: c.Alpha})
		ch := cur.Judges[0].Inflation.Change
		if ch == nil || ch.Test != TestWelch {
			t.Fatalf("%+v: change %+v, want a Welch test", c, ch)
		}
		if !close(ch.Delta, c.Diff) || !close(ch.P, c.P) || !close(ch.CI[0], c.Lo) || !close(ch.CI[1], c.Hi) {
			t.Errorf("%+v: delta %v p %v ci %v", c, ch.Delta, ch.P, ch.CI)
		}
	}
}

// A paired change is tested with the cluster-robust SE of the paired
// difference: p = 2Φ(−|Δ|/SE).
func TestDiffPairedCluster(t *testing.T) {
	cur, base := oneJudge(10, 16, 24, 10), oneJudge(10, 10, 30, 10)
	paired := map[string]Paired{"j@c": {Neg: PairedSide{B: 8, C: 2, N: 40, CI: Interval{-0.1, 0.2}, SE: 0.05},
		Pos: PairedSide{N: 20, CI: NoInterval(), SE: 0}, All: PairedSide{B: 8, C: 2, N: 60, CI: NoInterval(), SE: 0.04}}}
	mustDiff(t, cur, base, paired, DiffOptions{Adjust: "none"})
	ch := cur.Judges[0].FPR.Change
	want := 2 * stats.NormalCDF(-0.15/0.05)
	if ch.Test != TestPairedCluster || !ch.Paired || !close(ch.P, want) || ch.NPairs != 40 || ch.CI != (Interval{-0.1, 0.2}) || !ch.Significant || !ch.Regression {
		t.Errorf("%+v, want paired p %v", ch, want)
	}
	if tp := cur.Judges[0].TPR.Change; tp.Test != TestPairedCluster || tp.P != 1 {
		t.Errorf("TPR with no change and SE 0: %+v, want p 1", tp)
	}
	if fdr := cur.Judges[0].FDR.Change; fdr.Test != TestTwoProp || fdr.Paired {
		t.Errorf("FDR is not paired: %+v", fdr)
	}
}

// Unpaired proportions with bootstrap intervals on both sides take the
// pooled z test times the design effect those intervals imply (each SE
// their width over 2·z(1−α/2)); the inflation z = Δ / √(seA² + seB²).
func TestDiffUnpairedClustered(t *testing.T) {
	cur, base := oneJudge(10, 16, 24, 10), oneJudge(10, 10, 30, 10)
	z := stats.NormalQuantile(0.975)
	cur.Judges[0].FPR.Boot = Interval{Num(0.4 - 0.1*z), Num(0.4 + 0.1*z)}    // se 0.1
	base.Judges[0].FPR.Boot = Interval{Num(0.25 - 0.2*z), Num(0.25 + 0.2*z)} // se 0.2
	cur.Judges[0].Inflation.Boot = Interval{Num(-0.05 * z), Num(0.05 * z)}
	base.Judges[0].Inflation.Boot = Interval{Num(-0.05 * z), Num(0.05 * z)}
	mustDiff(t, cur, base, nil, DiffOptions{Alpha: 0.05, Adjust: "none"})
	ch := cur.Judges[0].FPR.Change
	d := (0.01*40/(0.4*0.6)*40 + 0.04*40/(0.25*0.75)*40) / 80
	se0 := math.Sqrt(d * 0.325 * 0.675 * (2.0 / 40))
	if want := 2 * stats.NormalCDF(-0.15/se0); ch.Test != TestClusteredTwoProp || ch.Paired || !close(ch.P, want) || !close(ch.SE, math.Hypot(0.1, 0.2)) {
		t.Errorf("%+v, want clustered two-proportion p %v", ch, want)
	}
	infl := cur.Judges[0].Inflation.Change
	dInfl := float64(cur.Judges[0].Inflation.Value - base.Judges[0].Inflation.Value)
	if want := 2 * stats.NormalCDF(-math.Abs(dInfl)/math.Hypot(0.05, 0.05)); infl.Test != TestBootZ || !close(infl.P, want) {
		t.Errorf("inflation %+v, want boot z p %v", infl, want)
	}
}

// The family is adjusted: three paired tests with raw p 0.04 are all
// significant unadjusted, none under Holm or BH (19 tests, the others
// unchanged), and the gates read the adjusted flags.
func TestDiffAdjusts(t *testing.T) {
	for _, c := range []struct {
		adjust string
		sig    int
	}{{"none", 3}, {"holm", 0}, {"bh", 0}} {
		cur, base := sampleDocument(), sampleDocument()
		r := &cur.Judges[0]
		r.FPR.Value += 0.1
		r.TPR.Value -= 0.1
		r.Inflation.Value += 0.1
		se := 0.1 / stats.NormalQuantile(0.98)
		side := PairedSide{N: 40, CI: NoInterval(), SE: se}
		mustDiff(t, cur, base, map[string]Paired{"j1@E2-lastk": {Neg: side, Pos: side, All: side}}, DiffOptions{Adjust: c.adjust})
		if got := cur.Summary.SignificantChanges; got != c.sig || cur.Summary.SignificantRaw != 3 || cur.Summary.Adjust != c.adjust {
			t.Errorf("%s: %d significant (raw %d), want %d: %s", c.adjust, got, cur.Summary.SignificantRaw, c.sig, cur.Summary.Line)
		}
		if ch := cur.Judges[0].FPR.Change; !close(ch.P, 0.04) {
			t.Errorf("%s: raw p %v, want 0.04", c.adjust, ch.P)
		}
		g, _ := ParseGate(`regressions > 0`)
		if res, _ := g.Eval(cur.Figures()); res.Failed != (c.sig > 0) {
			t.Errorf("%s: gate regressions > 0 failed=%v", c.adjust, res.Failed)
		}
	}
}

func mustDiff(t *testing.T, cur, base *Document, paired map[string]Paired, opts DiffOptions) {
	t.Helper()
	if err := Diff(cur, base, paired, opts); err != nil {
		t.Fatal(err)
	}
}

func TestDiffSummary(t *testing.T) {
	base := sampleDocument()
	same := sampleDocument()
	mustDiff(t, same, base, nil, DiffOptions{})
	if same.Summary.SignificantChanges != 0 || same.Summary.Regressions != 0 || same.Summary.Compared == 0 {
		t.Errorf("identical reports: %+v", same.Summary)
	}
	if want := "No significant change against the baseline"; same.Summary.Line[:len(want)] != want {
		t.Errorf("summary line %q", same.Summary.Line)
	}
	if ch := same.Judges[0].Kappa.Change; ch == nil || ch.Test != TestNone || ch.Significant {
		t.Errorf("kappa change %+v: want shown, not tested", ch)
	}
	worse := sampleDocument()
	r := &worse.Judges[1] // j2: FPR 4/40 → 20/40
	r.FP, r.TN = 20, 20
	r.FPR = mkEst(0.5, 0.35, 0.65, 20, 40)
	r.Inflation.Value = Num(float64(r.FP-r.FN) / 60)
	mustDiff(t, worse, base, nil, DiffOptions{})
	// The FPR and the inflation (further from zero) are both worse.
	if worse.Summary.Regressions != 2 || worse.Summary.SignificantChanges != 2 || !worse.Judges[1].FPR.Change.Regression ||
		!worse.Judges[1].Inflation.Change.Regression {
		t.Errorf("FPR 0.1 → 0.5: summary %+v", worse.Summary)
	}
	better := sampleDocument()
	better.Judges[0].FPR = mkEst(0.0, 0, 0.09, 0, 40) // j1: 10/40 → 0/40
	mustDiff(t, better, base, nil, DiffOptions{})
	if c := better.Judges[0].FPR.Change; !c.Significant || c.Regression || better.Summary.Regressions != 0 {
		t.Errorf("FPR 0.25 → 0: %+v (a significant improvement is no regression)", c)
	}
	figs := worse.Figures()
	g, _ := ParseGate(`regressions > 0`)
	if res, _ := g.Eval(figs); !res.Failed {
		t.Error("gate regressions > 0 did not fire")
	}
	g, _ = ParseGate(`fpr{judge="j2"}.regression == 1`)
	if res, _ := g.Eval(figs); !res.Failed {
		t.Error("gate on the regression field did not fire")
	}
}
