package main

import (
	"cmp"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

func rateCommand() *cli.Command {
	return &cli.Command{
		Name:  "rate",
		Usage: "corrected success rates: judge verdicts on all episodes, ground truth on some (prediction-powered inference)",
		Description: "Per judge × condition (and agent with --by agent): the judge-only success rate over\n" +
			"all judged episodes, the ground-truth-only rate over the episodes with ground\n" +
			"truth, and the prediction-powered estimates that correct the judge with the ground\n" +
			"truth: PPI (lambda = 1) and PPI++ (lambda tuned to minimise the variance), each\n" +
			"with the normal interval of ppi-python's ppi_mean_ci and a task-cluster bootstrap\n" +
			"interval; the number of ground-truth labels the tuned estimate is worth. Assumes\n" +
			"the ground truth is on a random subset of the episodes, and warns when the task\n" +
			"or agent mix of labelled and unlabelled episodes differs. Reward models: the\n" +
			"verdict at --threshold T, or the mean score with --score. See docs/rate.md.\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "judge", Usage: "only this judge (repeatable)"},
			&cli.StringSliceFlag{Name: "condition", Usage: "only this evidence condition (repeatable)"},
			&cli.StringFlag{Name: "by", Usage: "agent: one row per agent (default: all agents pooled)"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source"},
			gtFlag(),
			&cli.StringFlag{Name: "uncertain-policy", Value: metrics.UncertainFailure, Usage: "a majority 'uncertain' counts as failure, success or exclude"},
			&cli.Float64Flag{Name: "threshold", Usage: "score-only judges (reward models): score >= `T` is success"},
			&cli.BoolFlag{Name: "score", Usage: "predict with the episode's mean run score instead of the verdict (reward models)"},
			&cli.StringFlag{Name: "lambda", Value: metrics.LambdaTuned, Usage: "corrected estimate shown first: tuned (PPI++) or 1 (PPI)"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "two-sided level of every interval"},
			&cli.IntFlag{Name: "bootstrap", Value: 2000, Usage: "task-clustered bootstrap resamples"},
			&cli.Uint64Flag{Name: "seed", Value: metrics.DefaultSeed, Usage: "bootstrap seed (same seed, same intervals)"},
			&cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: all cores)"},
			&cli.BoolFlag{Name: "json", Usage: "print as JSON"},
		},
		Action: cmdline.NoArgs("trustlake rate --by agent --json", func(c *cli.Context) error {
			by := c.String("by")
			if by != "" && by != metrics.ByAgent {
				return usageHint("trustlake rate --by agent", "rate: --by %q: want agent", by)
			}
			if err := checkResampling(c.Int("bootstrap"), c.Uint64("seed")); err != nil {
				return err
			}
			ctx := c.Context
			o := metrics.RateOptions{Judges: c.StringSlice("judge"), Conditions: c.StringSlice("condition"),
				ByAgent: by == metrics.ByAgent, Source: c.String("source"), GT: c.String("gt"),
				UncertainPolicy: c.String("uncertain-policy"),
				Score:           c.Bool("score"), Lambda: c.String("lambda"), Alpha: c.Float64("alpha"),
				Resamples: c.Int("bootstrap"), Seed: c.Uint64("seed"), Threshold: thresholdOpt(c), Stop: ctx.Done()}
			rep, err := inSession(ctx, globals(c), c.Int("threads"), func(s *queries.Session) (metrics.RateReport, error) {
				return metrics.Rate(ctx, s, o)
			})
			if err != nil {
				return cmp.Or(ctx.Err(), err)
			}
			return output(c.App.Writer, c.App.ErrWriter, c.Bool("json"), rep, metrics.WriteRateTable, rep.Warnings)
		}),
	}
}
