package report_test

import (
	"fmt"

	"github.com/trustlake/trustlake/report"
)

// A nightly gate over a report: fail when a judge's FPR upper bound is
// above 10%, and when any figure regressed against the baseline.
func ExampleParseGate() {
	doc := &report.Document{Judges: []report.JudgeRow{{
		Judge: "vlm:x", Condition: "E2-lastk", FP: 12, TN: 88,
		FPR: report.Estimate{Value: 0.12, Wilson: report.Interval{0.070, 0.198}, Boot: report.NoInterval(), K: 12, N: 100},
	}}}
	for _, expr := range []string{`fpr{judge="vlm:x",condition="E2-lastk"}.wilson_hi > 0.10`, `regressions > 0`, `fpr{judge=vlm:x} > 0`} {
		g, err := report.ParseGate(expr)
		if err != nil {
			fmt.Println(err)
			continue
		}
		res, err := g.Eval(doc.Figures())
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(expr, "failed:", res.Failed, res.Fired)
	}
	// Output:
	// fpr{judge="vlm:x",condition="E2-lastk"}.wilson_hi > 0.10 failed: true [fpr{condition="E2-lastk",judge="vlm:x"}.wilson_hi = 0.198]
	// regressions > 0 failed: false []
	// --fail-on "fpr{judge=vlm:x} > 0": position 11: want a double-quoted value
}
