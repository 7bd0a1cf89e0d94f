package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

func checklistCommand() *cli.Command {
	return &cli.Command{
		Name:  "checklist",
		Usage: "is a judge usable as a training signal? each item pass/fail with its figure; exit 4 unless all pass",
		Description: "Items: verifiers deterministic; verifiers tested on fixtures; enough GT\n" +
			"negatives for --half-width; FPR upper bound (the larger of Wilson and bootstrap)\n" +
			"<= --fpr-target on natural episodes; hard-negative FPR reported with its\n" +
			"interval; claim sway (E2+claim vs E2-lastk) not significant; self-consistency\n" +
			"and parse-error rate within bounds; no leakage in evidence. An item the lake\n" +
			"cannot decide is 'not checked' with the reason, and counts as not passed unless\n" +
			"--allow-not-checked. Exit 0 only when the checklist passes, 4 when it does not.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "judge", Required: true, Usage: "`JUDGE`"},
			&cli.StringFlag{Name: "condition", Required: true, Usage: "evidence `CONDITION`"},
			&cli.Float64Flag{Name: "fpr-target", Value: 0.05, Usage: "largest acceptable FPR upper bound"},
			&cli.Float64Flag{Name: "half-width", Value: 0.05, Usage: "requested FPR precision (Wilson half-width)"},
			&cli.Float64Flag{Name: "min-self-consistency", Value: 0.9, Usage: "smallest share of episodes with unanimous runs"},
			&cli.Float64Flag{Name: "max-parse-error", Value: 0.05, Usage: "largest parse-error rate"},
			&cli.BoolFlag{Name: "allow-not-checked", Usage: "pass when no item fails, even if some could not be checked"},
		}, metricFlags()...),
		Action: func(c *cli.Context) error {
			mc, err := metricCommonOpts(c)
			if err != nil {
				return err
			}
			o := metrics.ChecklistOptions{
				Judge:     queries.JudgeCondition{Judge: c.String("judge"), Condition: c.String("condition")},
				TargetFPR: c.Float64("fpr-target"), HalfWidth: c.Float64("half-width"),
				MinSelfConsistency: c.Float64("min-self-consistency"), MaxParseErrorRate: c.Float64("max-parse-error"),
				UncertainPolicy: mc.policy, Alpha: mc.alpha, Resamples: mc.resamples, Seed: mc.seed, Threshold: mc.threshold,
				AllowNotChecked: c.Bool("allow-not-checked")}
			g := globals(c)
			src, err := g.openLakeRead()
			if err != nil {
				return err
			}
			o.Packs = judge.NewStore(src)
			r, err := inSession(c.Context, g, mc.threads, func(s *queries.Session) (metrics.ChecklistReport, error) {
				return metrics.Checklist(c.Context, s, o)
			})
			if err != nil {
				return err
			}
			if err := output(c.App.Writer, g.stderr, mc.json, r, metrics.WriteChecklistText, r.Warnings); err != nil {
				return err
			}
			if !r.Pass {
				return &summaryError{exitCheckFailed, fmt.Sprintf("checklist not passed: %d failed, %d not checked",
					r.Failed, r.NotChecked)}
			}
			if !mc.json {
				fmt.Fprintf(c.App.Writer, "PASS (%d not checked)\n", r.NotChecked)
			}
			return nil
		},
	}
}
