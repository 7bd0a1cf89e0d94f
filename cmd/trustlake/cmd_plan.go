package main

import (
	"cmp"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
)

func planCommand() *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "sample size: negatives for an FPR precision, or the power of the paired judge test",
		Description: "trustlake plan --fpr 0.2 --half-width 0.05\n" +
			"    GT negatives needed for a Wilson half-width W at FPR P.\n" +
			"trustlake plan --power --fpr-a 0.25 --fpr-b 0.15 --n 300 [--discordance 0.2]\n" +
			"    simulated power of the exact McNemar test on N paired negatives (the exact\n" +
			"    value and the N for 80% power beside it). Discordance is the share of\n" +
			"    negatives on which the judges disagree; default |fpr-a − fpr-b|, the\n" +
			"    most favourable case.\n" +
			"trustlake plan --labels --rate 0.4 --tpr 0.9 --fpr 0.2 --half-width 0.03 [--episodes M]\n" +
			"trustlake plan --labels --judge J --condition C --half-width 0.03\n" +
			"    ground-truth labels a corrected success rate (trustlake rate) needs for a\n" +
			"    normal-interval half-width W: ground truth alone, PPI and PPI++, given the\n" +
			"    judge's agreement (given, or measured on the lake's labelled episodes) and\n" +
			"    M judged episodes in all (0: unlimited; measured: the judge's episodes).\n" +
			"    See docs/statistics.md.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.Float64Flag{Name: "fpr", Usage: "expected false-positive rate `P` (with --labels: the judge's)"},
			&cli.Float64Flag{Name: "half-width", Usage: "wanted half-width `W` (Wilson; with --labels the normal interval's)"},
			&cli.BoolFlag{Name: "power", Usage: "power of the paired test instead"},
			&cli.Float64Flag{Name: "fpr-a", Usage: "judge A's FPR"},
			&cli.Float64Flag{Name: "fpr-b", Usage: "judge B's FPR"},
			&cli.IntFlag{Name: "n", Usage: "paired GT negatives"},
			&cli.Float64Flag{Name: "discordance", Usage: "share of discordant negatives (0: |fpr-a − fpr-b|)"},
			&cli.IntFlag{Name: "sims", Value: 2000, Usage: "simulations"},
			&cli.Uint64Flag{Name: "seed", Value: metrics.DefaultSeed, Usage: "simulation seed"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "two-sided level"},
			&cli.BoolFlag{Name: "json", Usage: "print as JSON"},
		}, labelsFlags()...),
		Action: func(c *cli.Context) error {
			g, asJSON, stdout := globals(c), c.Bool("json"), c.App.Writer
			if c.Bool("labels") {
				l, err := labelsOpts(c)
				if err != nil {
					return err
				}
				return runPlanLabels(c.Context, g, l, stdout)
			}
			if c.Bool("power") {
				for _, f := range []string{"fpr-a", "fpr-b", "n"} {
					if !c.IsSet(f) {
						return usageHint("trustlake plan --power --fpr-a 0.25 --fpr-b 0.15 --n 300", "plan --power: --%s is required", f)
					}
				}
				p, err := metrics.PlanPower(metrics.PowerOptions{FPRA: c.Float64("fpr-a"), FPRB: c.Float64("fpr-b"),
					N: c.Int("n"), Discordance: c.Float64("discordance"), Alpha: c.Float64("alpha"), Sims: c.Int("sims"),
					Seed: c.Uint64("seed"), Stop: c.Context.Done()})
				if err != nil {
					return cmp.Or(c.Context.Err(), metricsError(err))
				}
				return output(stdout, g.stderr, asJSON, p, metrics.WritePowerText, nil)
			}
			if !c.IsSet("fpr") || !c.IsSet("half-width") {
				return usageHint("trustlake plan --fpr 0.2 --half-width 0.05", "plan: give --fpr and --half-width, or --power")
			}
			p, err := metrics.PlanNegatives(c.Float64("fpr"), c.Float64("half-width"), c.Float64("alpha"))
			if err != nil {
				return metricsError(err)
			}
			return output(stdout, g.stderr, asJSON, p, metrics.WriteNegativesText, nil)
		},
	}
}
