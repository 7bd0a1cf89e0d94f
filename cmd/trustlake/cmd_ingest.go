package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/render"
)

// ingestFlags are the flags shared by the ingest subcommands (runIngest reads them).
func ingestFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "replace", Usage: "overwrite rows whose natural key exists with different content"},
		&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
	}
}

func ingestCommand() *cli.Command {
	return &cli.Command{
		Name:  "ingest",
		Usage: "load episodes, verdicts, labels, results or any SQL-readable file into the lake",
		Description: "Every ingest is one all-or-nothing batch: a rejected record is printed as\n" +
			"FILE:LINE: FIELD: reason and nothing from the batch is committed. Re-ingesting\n" +
			"identical rows is a no-op; the same natural key with different content is an\n" +
			"error naming both sources unless --replace is given.\n" + exitCodesHelp,
		Subcommands: []*cli.Command{
			ingestFilesCommand("episodes", "ingest episode folders (meta.json, actions.jsonl, gt.json, screens/, final_state.tar.zst)", "PATH...",
				"trustlake ingest episodes episodes/", "ingest episodes: no PATH given", "", ingest.Episodes),
			ingestFilesCommand("verdicts", "ingest judge verdict JSONL (one judge call per line)", "FILE...",
				"trustlake ingest verdicts verdicts/*.jsonl", "ingest verdicts: no FILE given", "", ingest.Verdicts),
			ingestFilesCommand("labels", "ingest manual failure categories: CSV episode_id,category[,annotator,note]", "FILE.csv...",
				"trustlake ingest labels labels.csv", "ingest labels: no FILE given", "", ingest.Labels),
			ingestFilesCommand("human-labels", "ingest human pass/fail judgments as ground truth: CSV episode_id,pass,annotator[,note]", "FILE.csv...",
				"trustlake ingest human-labels judgments.csv", "ingest human-labels: no FILE given", humanLabelsHelp, ingest.HumanLabels),
			ingestFilesCommand("results", "ingest recorded benchmark results (JSONL) for the Trust Layer", "FILE.jsonl...",
				"trustlake ingest results results.jsonl", "ingest results: no FILE given", ingest.ResultsFormat+"\n"+exitCodesHelp, ingest.Results),
			ingestTauBenchCommand(),
			ingestInspectCommand(),
			ingestSQLCommand(),
		},
	}
}

// ingestFilesCommand is an ingest subcommand that reads the files (or
// folders) given as arguments with read.
func ingestFilesCommand(name, usage, argsUsage, example, missing, description string,
	read func(context.Context, *lake.Lake, []string, ingest.Options) (ingest.Stats, error)) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: argsUsage, Description: description, Flags: ingestFlags(),
		Action: cmdline.NeedArgs(example, missing, func(c *cli.Context) error {
			return runIngest(c, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return read(ctx, dst, c.Args().Slice(), o)
			})
		})}
}

// humanLabelsHelp is the description of ingest human-labels.
const humanLabelsHelp = "Each line is one annotator's judgment of one episode, stored in ground_truth\n" +
	"with source human and the annotator (no verifier hash). Several annotators per\n" +
	"episode are allowed: metrics --gt human takes their majority (a tie gives no\n" +
	"reference) and reports Fleiss' kappa between annotators. pass is pass/fail,\n" +
	"true/false, 1/0, yes/no, success/failure or successful/unsuccessful (any case);\n" +
	"unsure, uncertain or unknown is skipped and counted in a warning. Example:\n\n" +
	"  episode_id,pass,annotator,note\n" +
	"  ep_0001,fail,alice,saved to the wrong file\n" +
	"  ep_0001,fail,bob,\n" +
	"  ep_0002,pass,alice,\n\n" + exitCodesHelp

type ingestFunc func(context.Context, *lake.Lake, ingest.Options) (ingest.Stats, error)

// runIngest opens the lake, runs one ingest with the ingestFlags of c and
// prints its summary.
func runIngest(c *cli.Context, fn ingestFunc) error {
	g := globals(c)
	dst, err := g.openLake()
	if err != nil {
		return err
	}
	st, err := fn(c.Context, dst, ingest.Options{
		Replace:  c.Bool("replace"),
		Progress: progress(g.stderr, "rows"),
	})
	clearProgress(g.stderr)
	if err != nil {
		return printRejected(g.stderr, err)
	}
	if c.Bool("json") {
		return render.JSON(c.App.Writer, st)
	}
	ingest.WriteSummary(c.App.Writer, st)
	return nil
}
