package metrics

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/trustlake/trustlake/render"
)

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
