package main

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// labelsOptions are the values of plan --labels.
type labelsOptions struct {
	agreement        stats.PPIAgreement
	set              map[string]bool // which of rate, tpr, fpr, episodes were given
	episodes         int
	judge, condition string
	rate             metrics.RateOptions // how to measure the agreement from the lake
	half, alpha      float64             // --half-width, --alpha
	json             bool
}

func labelsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "labels", Usage: "ground-truth labels a corrected success rate needs (trustlake rate)"},
		&cli.Float64Flag{Name: "rate", Usage: "expected ground-truth success rate `P` (--labels)"},
		&cli.Float64Flag{Name: "tpr", Usage: "the judge's true-positive rate (--labels)"},
		&cli.IntFlag{Name: "episodes", Usage: "judged episodes in all, labelled included (--labels; 0: unlimited)"},
		&cli.StringFlag{Name: "judge", Usage: "measure rate, TPR and FPR of this judge on the lake (--labels)"},
		&cli.StringFlag{Name: "condition", Usage: "... under this condition (--labels)"},
		&cli.Float64Flag{Name: "threshold", Usage: "score-only judge measured: score >= `T` is success (--labels)"},
		gtFlag(),
	}
}

// labelsOpts reads plan --labels: either --rate, --tpr and --fpr, or
// --judge and --condition (then any of those given overrides what the lake
// measures).
func labelsOpts(c *cli.Context) (labelsOptions, error) {
	l := labelsOptions{set: map[string]bool{}, judge: c.String("judge"), condition: c.String("condition"), episodes: c.Int("episodes")}
	// --fpr is the judge's false-positive rate here.
	l.agreement = stats.PPIAgreement{P: c.Float64("rate"), TPR: c.Float64("tpr"), FPR: c.Float64("fpr")}
	for _, f := range []string{"rate", "tpr", "fpr", "episodes"} {
		l.set[f] = c.IsSet(f)
	}
	if !c.IsSet("half-width") {
		return l, usageHint("trustlake plan --labels --rate 0.4 --tpr 0.9 --fpr 0.2 --half-width 0.03", "plan --labels: --half-width is required")
	}
	if (l.judge == "") != (l.condition == "") {
		return l, usageHint("trustlake plan --labels --judge sim:vlm-a --condition E2-lastk --half-width 0.03", "plan --labels: give --judge and --condition together")
	}
	if l.judge == "" && !(l.set["rate"] && l.set["tpr"] && l.set["fpr"]) {
		return l, usageHint("trustlake plan --labels --rate 0.4 --tpr 0.9 --fpr 0.2 --half-width 0.03", "plan --labels: give --rate, --tpr and --fpr, or --judge and --condition")
	}
	l.rate = metrics.RateOptions{GT: c.String("gt"), Threshold: thresholdOpt(c)}
	l.half, l.alpha, l.json = c.Float64("half-width"), c.Float64("alpha"), c.Bool("json")
	return l, nil
}

func runPlanLabels(ctx context.Context, g globalOptions, l labelsOptions, stdout io.Writer) error {
	a, episodes := l.agreement, l.episodes
	if l.judge != "" {
		type measured struct {
			a stats.PPIAgreement
			n int
		}
		m, err := inSession(ctx, g, 0, func(s *queries.Session) (measured, error) {
			a, n, err := metrics.MeasuredAgreement(ctx, s, l.judge, l.condition, l.rate)
			return measured{a, n}, err
		})
		if err != nil {
			return err
		}
		for f, v := range map[string]*float64{"rate": &a.P, "tpr": &a.TPR, "fpr": &a.FPR} {
			if !l.set[f] {
				*v = map[string]float64{"rate": m.a.P, "tpr": m.a.TPR, "fpr": m.a.FPR}[f]
			}
		}
		if !l.set["episodes"] {
			episodes = m.n
		}
	}
	p, err := metrics.PlanLabels(a, l.half, l.alpha, episodes)
	if err != nil {
		return metricsError(err)
	}
	p.Judge, p.Condition = l.judge, l.condition
	text := func(w io.Writer, p metrics.LabelsPlan) { metrics.WriteLabelsText(w, p, episodes) }
	return output(stdout, g.stderr, l.json, p, text, nil)
}
