package main

import (
	"context"
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
)

func ingestTauBenchCommand() *cli.Command {
	return &cli.Command{
		Name:      "tau-bench",
		Usage:     "ingest τ-bench trajectory files (results + actions) for the Trust Layer",
		ArgsUsage: "FILE.json...",
		Description: "Reads τ-bench's historical trajectory format (a JSON array of {task_id, reward,\n" +
			"info, traj, trial}). Each record becomes one row of results (result_id\n" +
			"BENCHMARK/AGENT/TASK/TRIAL, partition benchmark=) and one row of actions per\n" +
			"message. The agent and domain default to the file name: gpt-4o-airline.json is\n" +
			"agent gpt-4o, benchmark tau-bench-airline.\n\n" +
			"Rejected: trials of one task that disagree on it (instruction, user, outputs,\n" +
			"gold actions), a trajectory without an assistant message, tool calls whose\n" +
			"arguments are not JSON, rewards outside [0, 1] without --scale. Every bad record\n" +
			"is printed as FILE:LINE: FIELD: reason and the rest of the file is still read;\n" +
			"by default nothing is committed (fix or remove the bad records), with --skip-bad\n" +
			"the good records are committed and the command still exits 3.\n" + exitCodesHelp,
		Flags: append(ingestFlags(),
			&cli.StringFlag{Name: "domain", Usage: "τ-bench `DOMAIN` (default: from the file name, after the last '-')"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` (default: from the file name, before the last '-')"},
			&cli.StringFlag{Name: "benchmark", Usage: "benchmark `NAME` (default: tau-bench-DOMAIN)"},
			&cli.Float64Flag{Name: "scale", Value: 1, Usage: "reward `SCALE`: scores are reward/SCALE and must lie in [0, 1]"},
			&cli.BoolFlag{Name: "skip-bad", Usage: "commit the good records, report the bad ones (exit 3)"},
		),
		Action: cmdline.NeedArgs("trustlake ingest tau-bench gpt-4o-airline.json", "ingest tau-bench: no FILE given", func(c *cli.Context) error {
			if c.IsSet("scale") && !(c.Float64("scale") > 0) {
				return usageErrorf("ingest tau-bench: --scale must be > 0, got %g", c.Float64("scale"))
			}
			tb := ingest.TauBenchOptions{Domain: c.String("domain"), Agent: c.String("agent"), Benchmark: c.String("benchmark"),
				Scale: c.Float64("scale"), SkipBad: c.Bool("skip-bad")}
			var skipped *ingest.Skipped
			err := runIngest(c, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				st, err := ingest.TauBench(ctx, dst, c.Args().Slice(), tb, o)
				if errors.As(err, &skipped) {
					return st, nil // the rejected records are printed after the summary
				}
				return st, err
			})
			if err != nil || skipped == nil {
				return err
			}
			printRejected(c.App.ErrWriter, &ingest.Rejected{Errors: skipped.Errors})
			return &summaryError{exitRejected, skipped.Error()}
		}),
	}
}
