package report

import (
	"encoding/json"
	"math"
	"os"
	"testing"
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
		Diff(cur, base, nil, c.Alpha)
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
		Diff(cur, base, nil, c.Alpha)
		ch := cur.Judges[0].Inflation.Change
		if ch == nil || ch.Test != TestWelch {
			t.Fatalf("%+v: change %+v, want a Welch test", c, ch)
		}
		if !close(ch.Delta, c.Diff) || !close(ch.P, c.P) || !close(ch.CI[0], c.Lo) || !close(ch.CI[1], c.Hi) {
			t.Errorf("%+v: delta %v p %v ci %v", c, ch.Delta, ch.P, ch.CI)
		}
	}
}

func TestDiffPairedMcNemarMatchesReference(t *testing.T) {
	for _, c := range readSignificanceRef(t).McNemar {
		cur, base := oneJudge(10, 10+c.B, 30-c.B, 10), oneJudge(10, 10+c.C, 30-c.C, 10)
		paired := map[string]Paired{"j@c": {Neg: PairedSide{B: c.B, C: c.C, N: 40, CI: Interval{-0.1, 0.2}}, Pos: PairedSide{N: 20, CI: NoInterval()}}}
		Diff(cur, base, paired, 0.05)
		ch := cur.Judges[0].FPR.Change
		if ch.Test != TestMcNemar || !close(ch.P, c.P) || ch.NPairs != 40 || ch.CI != (Interval{-0.1, 0.2}) {
			t.Errorf("b=%d c=%d: %+v, want McNemar p %v", c.B, c.C, ch, c.P)
		}
		if tp := cur.Judges[0].TPR.Change; tp.Test != TestMcNemar || tp.P != 1 {
			t.Errorf("TPR with no discordant pairs: %+v, want McNemar p 1", tp)
		}
		if fdr := cur.Judges[0].FDR.Change; fdr.Test != TestTwoProp {
			t.Errorf("FDR is not paired: test %s", fdr.Test)
		}
	}
}

func TestDiffSummary(t *testing.T) {
	base := sampleDocument()
	same := sampleDocument()
	Diff(same, base, nil, 0.05)
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
	Diff(worse, base, nil, 0.05)
	// The FPR and the inflation (further from zero) are both worse.
	if worse.Summary.Regressions != 2 || worse.Summary.SignificantChanges != 2 || !worse.Judges[1].FPR.Change.Regression ||
		!worse.Judges[1].Inflation.Change.Regression {
		t.Errorf("FPR 0.1 → 0.5: summary %+v", worse.Summary)
	}
	better := sampleDocument()
	better.Judges[0].FPR = mkEst(0.0, 0, 0.09, 0, 40) // j1: 10/40 → 0/40
	Diff(better, base, nil, 0.05)
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
