package metrics

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/trustlake/trustlake/render"
)

// The readable (non --json) output of the metrics commands.

// WriteTable prints a Report for people: one line per row, the parameters,
// the strata tests, agreement and calibration, and the human reference.
func WriteTable(w io.Writer, rep Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "judge\tcondition\tstratum\tn\tneg\tfp\tFPR [Wilson] {bootstrap}\tTPR\tinflation {bootstrap}\tkappa\taccuracy [Wilson] {bootstrap}\tconsistent\tuncertain\tparse_err")
	for _, r := range rep.Rows {
		stratum := "all"
		if d, v := r.StratumKey(); d != "" {
			stratum = d + "=" + v
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Judge, r.Condition, stratum,
			r.NEpisodes, r.NNeg, r.FP, full(r.FPR), num(r.TPR.Value), withBoot(r.Inflation), num(r.Kappa.Value), full(r.Accuracy),
			num(r.SelfConsistency.Value), num(r.UncertainRate.Value), num(r.ParseErrorRate.Value))
	}
	tw.Flush()
	p := rep.Params
	fmt.Fprintf(w, "gt=%s source=%s uncertain=%s alpha=%g bootstrap=%d seed=%d tasks=%d", p.GT, p.Source, p.UncertainPolicy, p.Alpha, p.Bootstrap, p.Seed, p.Tasks)
	if p.Threshold != nil {
		fmt.Fprintf(w, " threshold=%g", *p.Threshold)
	}
	fmt.Fprintln(w)
	writeStrataTests(w, rep)
	writeExtras(w, rep)
	if r := rep.Reference; r.Episodes > 0 {
		fmt.Fprintf(w, "human judgments: %d episodes, %d annotators, %d judgments; %d judged by two or more (%d unanimous), %d ties (no majority); Fleiss kappa between annotators %s\n",
			r.Episodes, r.Annotators, r.Judgments, r.MultiAnnotated, r.Unanimous, r.Ties, num(float64(r.FleissKappa)))
	}
}

// writeStrataTests prints the strata whose FPR differs from the rest of
// their judge × condition (--adjust), after the adjustment.
func writeStrataTests(w io.Writer, rep Report) {
	if rep.Params.Adjust == "" {
		return
	}
	n, sig := 0, 0
	for _, r := range rep.Rows {
		if r.VsRest == nil {
			continue
		}
		n++
		if v := r.VsRest; v.Significant {
			sig++
			d, val := r.StratumKey()
			fmt.Fprintf(w, "stratum %s@%s %s=%s: FPR %s vs %s for the rest (diff %+.3f, p %.2g, adjusted %.2g)\n",
				r.Judge, r.Condition, d, val, num(r.FPR.Value), num(v.FPRRest), v.Diff, v.P, v.PAdjusted)
		}
	}
	fmt.Fprintf(w, "strata against the rest: %d of %d tests significant (--adjust %s at q %g)\n", sig, n, rep.Params.Adjust, rep.Params.Q)
}

// writeExtras prints the agreement and calibration sections.
func writeExtras(w io.Writer, rep Report) {
	if a := rep.Agreement; a != nil {
		for _, r := range a.Runs {
			fmt.Fprintf(w, "krippendorff alpha between runs of %s@%s: %s (%d episodes, %d tasks)\n", r.Judge, r.Condition, withBoot(r.Alpha), r.Units, r.Tasks)
		}
		for _, r := range a.Judges {
			fmt.Fprintf(w, "krippendorff alpha between %d judges under %s: %s (%d episodes, %d tasks)\n", r.Coders, r.Condition, withBoot(r.Alpha), r.Units, r.Tasks)
		}
		if h := a.Human; h != nil {
			fmt.Fprintf(w, "krippendorff alpha between human annotators: %s (%d episodes, %d tasks)\n", withBoot(h.Alpha), h.Units, h.Tasks)
		}
	}
	for _, c := range rep.Calibration {
		fmt.Fprintf(w, "calibration of %s@%s (%s, %d episodes, %d bins): Brier %s, ECE equal-width %s, equal-mass %s\n",
			c.Judge, c.Condition, c.Forecast, c.N, c.Bins, withBoot(c.Brier), withBoot(c.ECEWidth), withBoot(c.ECEMass))
	}
}

// WriteComparisonText prints a paired comparison for people.
func WriteComparisonText(w io.Writer, cmp Comparison) {
	fmt.Fprintf(w, "A = %s, B = %s (source %s, uncertain as %s, gt %s)\n", cmp.JudgeA, cmp.JudgeB, cmp.Source, cmp.UncertainPolicy, cmp.GT)
	for _, side := range []struct {
		name, rate, b string
		p             Paired
	}{{"GT negatives", "FPR", "A accepts, B rejects", cmp.Negatives}, {"GT positives", "TPR", "A accepts, B rejects", cmp.Positives},
		{"all pairs", "accuracy", "A agrees with the reference, B does not", cmp.Accuracy}} {
		p := side.p
		fmt.Fprintf(w, "%s: %d pairs in %d tasks; b (%s) = %d, c = %d, McNemar exact p = %s\n",
			side.name, p.NPairs, p.NTasks, side.b, p.B, p.C, num(p.McNemar))
		fmt.Fprintf(w, "  %s A %s   B %s   A−B %s\n", side.rate, full(p.RateA), full(p.RateB), withBoot(p.Diff))
	}
}

// WriteThresholdText prints a cross-fitted threshold for people.
func WriteThresholdText(w io.Writer, r ThresholdReport) {
	fmt.Fprintf(w, "%s@%s (source %s): %d episodes (%d GT passes, %d GT failures) in %d tasks, %d folds by task\n",
		r.Judge, r.Condition, r.Source, r.NEpisodes, r.NPos, r.NNeg, r.NTasks, r.Folds)
	fmt.Fprintf(w, "threshold for FPR <= %g: score >= %.6g (fold thresholds %.4g)\n", r.TargetFPR, r.Threshold, r.FoldThresholds)
	fmt.Fprintf(w, "held-out FPR %s  (fp %d / %d)\n", full(r.HeldOutFPR), r.FP, r.FP+r.TN)
	fmt.Fprintf(w, "held-out TPR %s  (tp %d / %d)\n", full(r.HeldOutTPR), r.TP, r.TP+r.FN)
	fmt.Fprintf(w, "ROC AUC      %s\n", withBoot(r.AUC))
}

// WriteChecklistText prints the checklist's items, each with its figure.
func WriteChecklistText(w io.Writer, r ChecklistReport) {
	fmt.Fprintf(w, "checklist for %s@%s as a training signal\n", r.Judge, r.Condition)
	for _, it := range r.Items {
		fmt.Fprintf(w, "  %-11s %s: %s\n", strings.ToUpper(it.Status), it.Title, it.Figure)
		if it.Reason != "" {
			fmt.Fprintf(w, "              %s\n", it.Reason)
		}
	}
}

func num(x float64) string { return render.Num(x) }

// full renders value [wilson] {bootstrap}.
func full(m Metric) string {
	return strings.TrimSpace(num(m.Value) + render.Span(m.Wilson, "[", "]") + render.Span(m.Boot, "{", "}"))
}

// withBoot renders value {bootstrap}.
func withBoot(m Metric) string { return num(m.Value) + render.Span(m.Boot, "{", "}") }

// WriteRateTable prints one line per row: counts, the judge-only and
// ground-truth-only rates, the corrected rate chosen by Lambda first.
func WriteRateTable(w io.Writer, rep RateReport) {
	o := rep.Options
	first, second := "PPI++", "PPI (λ=1)"
	if o.Lambda == LambdaOne {
		first, second = second, first
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "agent\tjudge\tcondition\tlabelled\tunlabelled\tjudge-only [ci] {boot}\tgt-only [ci] {boot}\t%s [ci] {boot}\tλ\t%s [ci] {boot}\tlabels worth\n", first, second)
	for _, r := range rep.Rows {
		a, b := r.PPITuned, r.PPI
		if o.Lambda == LambdaOne {
			a, b = b, a
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Agent, r.Judge, r.Condition, r.Labelled, r.Unlabelled,
			rateCell(r.JudgeOnly), rateCell(r.GTOnly), rateCell(a), num(r.PPITuned.Lambda), rateCell(b), labelsWorth(r.EffectiveLabels))
	}
	tw.Flush()
	fmt.Fprintf(w, "prediction: %s\n", rep.Prediction)
	fmt.Fprintf(w, "gt=%s source=%s alpha=%g bootstrap=%d seed=%d; ci: normal (ppi-python ppi_mean_ci), boot: task-cluster percentile\n",
		o.GT, o.Source, o.Alpha, o.Resamples, o.Seed)
	fmt.Fprintf(w, "assumption: %s\n", RateAssumption)
}

func rateCell(e RateEstimate) string {
	return num(e.Value) + render.Span(e.CI, "[", "]") + render.Span(e.Boot, "{", "}")
}

func labelsWorth(n float64) string {
	if n != n || n > 1e9 {
		return "-"
	}
	return fmt.Sprintf("%.0f", n)
}

// WritePowerText prints a power plan for people.
func WritePowerText(w io.Writer, p PowerPlan) {
	fmt.Fprintf(w, "power %.3f (simulated, %d runs; exact %.3f) to detect FPR %.4g vs %.4g on %d paired negatives (discordance %.4g, alpha %.4g)\n",
		p.Power, p.Sims, p.ExactPower, p.FPRA, p.FPRB, p.N, p.Discordance, p.Alpha)
	if p.NFor80 > 0 {
		fmt.Fprintf(w, "80%% power needs %d paired negatives\n", p.NFor80)
	} else {
		fmt.Fprintln(w, "80% power is out of reach below 65536 paired negatives")
	}
}

// WriteNegativesText prints a sample-size plan for people.
func WriteNegativesText(w io.Writer, p NegativesPlan) {
	fmt.Fprintf(w, "%d GT negatives for a Wilson half-width <= %.4g at FPR %.4g (alpha %.4g)\n", p.Negatives, p.HalfWidth, p.FPR, p.Alpha)
}

// WriteLabelsText prints a labels plan for people; episodes is the number
// of judged episodes it assumed (0: unlimited).
func WriteLabelsText(w io.Writer, p LabelsPlan, episodes int) {
	scope := "unlimited judged episodes"
	if episodes > 0 {
		scope = fmt.Sprintf("%d judged episodes", episodes)
	}
	who := ""
	if p.Judge != "" {
		who = fmt.Sprintf(" (%s@%s, measured)", p.Judge, p.Condition)
	}
	fmt.Fprintf(w, "ground-truth labels for a half-width <= %.4g (alpha %.4g) at success rate %.4g, judge TPR %.4g FPR %.4g%s, %s (correlation %s):\n",
		p.HalfWidth, p.Alpha, p.Rate, p.TPR, p.FPR, who, scope, num(float64(p.Rho)))
	for _, row := range []struct {
		name string
		n    *int
	}{{"ground truth alone", p.Classical}, {"PPI (lambda 1)", p.PPI}, {"PPI++ (lambda tuned)", p.Tuned}} {
		if row.n == nil {
			fmt.Fprintf(w, "  %-22s out of reach with %s\n", row.name, scope)
			continue
		}
		fmt.Fprintf(w, "  %-22s %d\n", row.name, *row.n)
	}
}
