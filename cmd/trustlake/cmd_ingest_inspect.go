package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
)

func ingestInspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "ingest Inspect AI logs (.eval or .json, or a folder of them)",
		ArgsUsage: "FILE.eval|FILE.json|DIR...",
		Description: "Each sample × epoch becomes an episode (agent = the evaluated model, task = the\n" +
			"sample id, episode_id EVAL_ID/SAMPLE/EPOCH) with its messages as actions. Each\n" +
			"scorer's scalar score in [0, 1] becomes a result (benchmark TASK:SCORER, trial =\n" +
			"epoch) for the Trust Layer. model_graded_* scorers (and --judge-scorer) are judges:\n" +
			"a verdict per episode (judge SCORER:GRADER_MODEL, condition E1-final, or E3-full\n" +
			"with include_history). The ground-truth scorer (--ground-truth, default the only\n" +
			"scorer that is not a judge) gives ground_truth rows: pass when its value is 1.\n" +
			"A sample with an error is an infrastructure failure; one that hit a limit is an\n" +
			"attempt. An unfinished log (no header.json) is read from its journal: the\n" +
			"completed samples, with a warning.\n" + exitCodesHelp,
		Flags: append(ingestFlags(),
			&cli.StringFlag{Name: "benchmark", Usage: "benchmark `NAME` (default: the task name); results go to NAME:SCORER"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` (default: the evaluated model)"},
			&cli.StringFlag{Name: "ground-truth", Usage: "`SCORER` whose values are ground truth, or none (default: the only non-judge scorer)"},
			&cli.StringSliceFlag{Name: "judge-scorer", Usage: "`SCORER` to treat as a model judge besides model_graded_* (repeatable)"},
		),
		Action: cmdline.NeedArgs("trustlake ingest inspect logs/", "ingest inspect: no FILE or DIR given", func(c *cli.Context) error {
			io := ingest.InspectOptions{
				Benchmark: c.String("benchmark"), Agent: c.String("agent"),
				GroundTruth: c.String("ground-truth"), Judges: c.StringSlice("judge-scorer"),
			}
			files := c.Args().Slice()
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(inspectMemoryLimit)
			}
			return runIngest(c, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.Inspect(ctx, dst, files, io, o)
			})
		}),
	}
}

// inspectMemoryLimit is the Go runtime's soft memory limit while Inspect
// logs are ingested (unless GOMEMLIMIT is set): the collector runs earlier
// rather than let the heap double past the rare peaks of live memory, so
// peak RSS stays flat as the number of samples grows.
const inspectMemoryLimit = 64 << 20
