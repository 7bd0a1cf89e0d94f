package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

type compareOptions struct {
	globalOptions
	metricCommon
	source string
	a, b   queries.JudgeCondition
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "paired comparison of two judges or conditions on the same GT negatives (McNemar, FPR difference)",
		ArgsUsage: "JUDGE@CONDITION JUDGE@CONDITION",
		Description: "Pairs the majority verdicts of A and B on the episodes both judged. On GT\n" +
			"negatives: b = A accepts and B rejects, c = the reverse, the exact two-sided\n" +
			"McNemar p, and the FPR difference A − B with a paired task-cluster bootstrap\n" +
			"interval; the same on GT positives for the TPR. --claim-sway J compares\n" +
			"J@E2+claim with J@E2-lastk.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "claim-sway", Usage: "compare `JUDGE`@E2+claim with JUDGE@E2-lastk"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source"},
		}, append(metricFlags(), engineFlags()...)...),
		Action: func(c *cli.Context) error {
			mc, err := metricCommonOpts(c)
			if err != nil {
				return err
			}
			if mc.engine, err = engineOpts(c); err != nil {
				return err
			}
			opts := compareOptions{globalOptions: globals(c), metricCommon: mc, source: c.String("source")}
			switch j := c.String("claim-sway"); {
			case j != "" && c.NArg() == 0:
				opts.a = queries.JudgeCondition{Judge: j, Condition: schema.ConditionClaim}
				opts.b = queries.JudgeCondition{Judge: j, Condition: schema.ConditionLastK}
			case j == "" && c.NArg() == 2:
				if opts.a, err = parseJudgeCondition(c.Args().Get(0)); err != nil {
					return err
				}
				if opts.b, err = parseJudgeCondition(c.Args().Get(1)); err != nil {
					return err
				}
			default:
				return usageHint("trustlake compare A@E2-lastk B@E2-lastk, or trustlake compare --claim-sway A",
					"compare: give two JUDGE@CONDITION arguments, or --claim-sway JUDGE alone")
			}
			return runCompare(c.Context, opts, c.App.Writer)
		},
	}
}

func runCompare(ctx context.Context, opts compareOptions, stdout io.Writer) error {
	cmp, err := onEngine(ctx, opts.globalOptions, opts.engine, opts.threads, func(s metrics.Engine) (metrics.Comparison, error) {
		return metrics.Compare(ctx, s, metrics.CompareOptions{A: opts.a, B: opts.b, Source: opts.source,
			UncertainPolicy: opts.policy, Alpha: opts.alpha, Resamples: opts.resamples, Seed: opts.seed, Threshold: opts.threshold})
	})
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(stdout, cmp)
	}
	fmt.Fprintf(stdout, "A = %s, B = %s (source %s, uncertain as %s)\n", cmp.JudgeA, cmp.JudgeB, cmp.Source, cmp.UncertainPolicy)
	for _, side := range []struct {
		name, rate string
		p          metrics.Paired
	}{{"GT negatives", "FPR", cmp.Negatives}, {"GT positives", "TPR", cmp.Positives}} {
		p := side.p
		fmt.Fprintf(stdout, "%s: %d pairs in %d tasks; b (A accepts, B rejects) = %d, c = %d, McNemar exact p = %s\n",
			side.name, p.NPairs, p.NTasks, p.B, p.C, num(p.McNemar))
		fmt.Fprintf(stdout, "  %s A %s   B %s   A−B %s\n", side.rate, full(p.RateA), full(p.RateB), withBoot(p.Diff))
	}
	for _, w := range cmp.Warnings {
		fmt.Fprintf(opts.stderr, "warning: %s\n", w)
	}
	return nil
}
