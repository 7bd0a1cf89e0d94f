package main

import (
	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

func thresholdCommand() *cli.Command {
	return &cli.Command{
		Name:  "threshold",
		Usage: "choose a reward-model score threshold for a target FPR by cross-fitting over tasks",
		Description: "Each episode's score is the mean of its runs' scores. Tasks are dealt into\n" +
			"--folds folds; the threshold for each fold is chosen on the other folds' GT\n" +
			"negatives so that their FPR <= --fpr-target, and the fold is judged with it.\n" +
			"Reports the threshold chosen on all episodes, held-out FPR and TPR (Wilson and\n" +
			"task bootstrap intervals) and the ROC AUC.\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "judge", Required: true, Usage: "score-only `JUDGE`"},
			&cli.StringFlag{Name: "condition", Required: true, Usage: "evidence `CONDITION`"},
			&cli.Float64Flag{Name: "fpr-target", Value: 0.05, Usage: "FPR the threshold must keep"},
			&cli.IntFlag{Name: "folds", Value: 5, Usage: "cross-fitting folds (split by task)"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "two-sided level of every interval"},
			&cli.IntFlag{Name: "bootstrap", Value: 2000, Usage: "task-clustered bootstrap resamples"},
			&cli.Uint64Flag{Name: "seed", Value: metrics.DefaultSeed, Usage: "fold and bootstrap seed"},
			&cli.BoolFlag{Name: "json", Usage: "print everything as JSON"},
			&cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: all cores)"},
		},
		Action: func(c *cli.Context) error {
			if c.Int("bootstrap") <= 0 || c.Uint64("seed") == 0 {
				return usageErrorf("threshold: --bootstrap and --seed must be positive")
			}
			jc := queries.JudgeCondition{Judge: c.String("judge"), Condition: c.String("condition")}
			opts := metrics.ThresholdOptions{Judge: jc,
				Source: c.String("source"), TargetFPR: c.Float64("fpr-target"), Folds: c.Int("folds"),
				Alpha: c.Float64("alpha"), Resamples: c.Int("bootstrap"), Seed: c.Uint64("seed")}
			run := func(s *queries.Session) (metrics.ThresholdReport, error) {
				return metrics.Threshold(c.Context, s, opts)
			}
			r, err := inSession(c.Context, globals(c), c.Int("threads"), run)
			if err != nil {
				return err
			}
			return output(c.App.Writer, c.App.ErrWriter, c.Bool("json"), r, metrics.WriteThresholdText, r.Warnings)
		},
	}
}
