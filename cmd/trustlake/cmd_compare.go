package main

import (
	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "paired comparison of two judges or conditions on the same GT negatives (McNemar, FPR difference)",
		ArgsUsage: "JUDGE@CONDITION JUDGE@CONDITION",
		Description: "Pairs the majority verdicts of A and B on the episodes both judged. On GT\n" +
			"negatives: b = A accepts and B rejects, c = the reverse, the exact two-sided\n" +
			"McNemar p, and the FPR difference A − B with a paired task-cluster bootstrap\n" +
			"interval; the same on GT positives for the TPR, and on all pairs for the\n" +
			"accuracy (agreement with the reference; b = A right and B wrong). --gt picks the\n" +
			"reference as in metrics. --claim-sway J compares J@E2+claim with J@E2-lastk.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "claim-sway", Usage: "compare `JUDGE`@E2+claim with JUDGE@E2-lastk"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source"},
			gtFlag(),
		}, append(metricFlags(), engineFlags()...)...),
		Action: func(c *cli.Context) error {
			mc, err := metricCommonOpts(c)
			if err != nil {
				return err
			}
			if mc.engine, err = engineOpts(c); err != nil {
				return err
			}
			o := metrics.CompareOptions{Source: c.String("source"), UncertainPolicy: mc.policy, Alpha: mc.alpha,
				Resamples: mc.resamples, Seed: mc.seed, Threshold: mc.threshold, GT: c.String("gt")}
			switch j := c.String("claim-sway"); {
			case j != "" && c.NArg() == 0:
				o.A = queries.JudgeCondition{Judge: j, Condition: schema.ConditionClaim}
				o.B = queries.JudgeCondition{Judge: j, Condition: schema.ConditionLastK}
			case j == "" && c.NArg() == 2:
				if o.A, err = parseJudgeCondition(c.Args().Get(0)); err != nil {
					return err
				}
				if o.B, err = parseJudgeCondition(c.Args().Get(1)); err != nil {
					return err
				}
			default:
				return usageHint("trustlake compare A@E2-lastk B@E2-lastk, or trustlake compare --claim-sway A",
					"compare: give two JUDGE@CONDITION arguments, or --claim-sway JUDGE alone")
			}
			run := func(s metrics.Engine) (metrics.Comparison, error) { return metrics.Compare(c.Context, s, o) }
			cmp, err := onEngine(c.Context, globals(c), mc.engine, mc.threads, run)
			if err != nil {
				return err
			}
			return output(c.App.Writer, c.App.ErrWriter, mc.json, cmp, metrics.WriteComparisonText, cmp.Warnings)
		},
	}
}
