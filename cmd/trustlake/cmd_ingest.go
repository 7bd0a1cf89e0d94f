package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/render"
)

// ingestOptions are the flags shared by the ingest subcommands.
type ingestOptions struct {
	globalOptions
	replace bool
	json    bool
}

func ingestFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "replace", Usage: "overwrite rows whose natural key exists with different content"},
		&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
	}
}

func ingestOpts(c *cli.Context) ingestOptions {
	return ingestOptions{globalOptions: globals(c), replace: c.Bool("replace"), json: c.Bool("json")}
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
			ingestEpisodesCommand(),
			ingestVerdictsCommand(),
			ingestLabelsCommand(),
			ingestHumanLabelsCommand(),
			ingestResultsCommand(),
			ingestTauBenchCommand(),
			ingestInspectCommand(),
			ingestSQLCommand(),
		},
	}
}

func ingestEpisodesCommand() *cli.Command {
	return &cli.Command{
		Name:      "episodes",
		Usage:     "ingest episode folders (meta.json, actions.jsonl, gt.json, screens/, final_state.tar.zst)",
		ArgsUsage: "PATH...",
		Flags:     ingestFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake ingest episodes episodes/", "ingest episodes: no PATH given")
			}
			opts := ingestOpts(c)
			return runIngest(c.Context, opts, c.App.Writer, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.Episodes(ctx, dst, c.Args().Slice(), o)
			})
		},
	}
}

func ingestVerdictsCommand() *cli.Command {
	return &cli.Command{
		Name:      "verdicts",
		Usage:     "ingest judge verdict JSONL (one judge call per line)",
		ArgsUsage: "FILE...",
		Flags:     ingestFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake ingest verdicts verdicts/*.jsonl", "ingest verdicts: no FILE given")
			}
			return runIngest(c.Context, ingestOpts(c), c.App.Writer, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.Verdicts(ctx, dst, c.Args().Slice(), o)
			})
		},
	}
}

func ingestLabelsCommand() *cli.Command {
	return &cli.Command{
		Name:      "labels",
		Usage:     "ingest manual failure categories: CSV episode_id,category[,annotator,note]",
		ArgsUsage: "FILE.csv...",
		Flags:     ingestFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake ingest labels labels.csv", "ingest labels: no FILE given")
			}
			return runIngest(c.Context, ingestOpts(c), c.App.Writer, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.Labels(ctx, dst, c.Args().Slice(), o)
			})
		},
	}
}

func ingestHumanLabelsCommand() *cli.Command {
	return &cli.Command{
		Name:      "human-labels",
		Usage:     "ingest human pass/fail judgments as ground truth: CSV episode_id,pass,annotator[,note]",
		ArgsUsage: "FILE.csv...",
		Description: "Each line is one annotator's judgment of one episode, stored in ground_truth\n" +
			"with source human and the annotator (no verifier hash). Several annotators per\n" +
			"episode are allowed: metrics --gt human takes their majority (a tie gives no\n" +
			"reference) and reports Fleiss' kappa between annotators. pass is pass/fail,\n" +
			"true/false, 1/0, yes/no, success/failure or successful/unsuccessful (any case);\n" +
			"unsure, uncertain or unknown is skipped and counted in a warning. Example:\n\n" +
			"  episode_id,pass,annotator,note\n" +
			"  ep_0001,fail,alice,saved to the wrong file\n" +
			"  ep_0001,fail,bob,\n" +
			"  ep_0002,pass,alice,\n\n" + exitCodesHelp,
		Flags: ingestFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake ingest human-labels judgments.csv", "ingest human-labels: no FILE given")
			}
			return runIngest(c.Context, ingestOpts(c), c.App.Writer, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.HumanLabels(ctx, dst, c.Args().Slice(), o)
			})
		},
	}
}

// resultsFormatHelp documents the results JSONL format (README "Results
// format" says the same).
const resultsFormatHelp = `One JSON object per line (blank lines skipped); every error of a line is
reported as FILE:LINE: FIELD: reason.

  field          type                  required  meaning
  benchmark      string (non-empty)    yes       partition benchmark=
  task_id        string (non-empty)    yes       the task; trials of one task are D4 repeats
  agent          string (non-empty)    yes       the agent or model configuration
  trial          integer >= 0          yes       the run number of this task and agent
  score          number                yes       the recorded score; score/scale must lie in [0, 1]
  scale          number > 0            no        declared scale of score (default 1)
  pass           boolean               no        the recorded verdict (default score/scale == 1)
  result_id      string                no        default "<benchmark>/<agent>/<task_id>/<trial>"
  episode_id     string                no        lake episode or trajectory (actions) of the run
  final_message  string                no        the agent's last message (D3)
  instruction    string                no        the task prompt (D2: GIVEN values); equal across trials
  grader         object                no        what D1 can re-run: {"kind":"outputs","outputs":[...]}
                                                 or {"kind":"tau-bench",...}; default {}
  infra_error    non-empty string      no        the run failed for infrastructure reasons (why);
                                                 absent or null for a valid run; "" is rejected
  other keys     any JSON              no        kept in the results column extra

Example:
  {"benchmark":"ale","task_id":"t07","agent":"sonnet","trial":0,"score":0.8,"pass":false,
   "final_message":"All tests pass.","grader":{"kind":"outputs","outputs":["42"]}}
  {"benchmark":"ale","task_id":"t07","agent":"sonnet","trial":1,"score":0,"infra_error":"sandbox timeout"}
`

func ingestResultsCommand() *cli.Command {
	return &cli.Command{
		Name:        "results",
		Usage:       "ingest recorded benchmark results (JSONL) for the Trust Layer",
		ArgsUsage:   "FILE.jsonl...",
		Description: resultsFormatHelp + "\n" + exitCodesHelp,
		Flags:       ingestFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake ingest results results.jsonl", "ingest results: no FILE given")
			}
			return runIngest(c.Context, ingestOpts(c), c.App.Writer, func(ctx context.Context, dst *lake.Lake, o ingest.Options) (ingest.Stats, error) {
				return ingest.Results(ctx, dst, c.Args().Slice(), o)
			})
		},
	}
}

type ingestFunc func(context.Context, *lake.Lake, ingest.Options) (ingest.Stats, error)

// runIngest opens the lake, runs one ingest and prints its summary.
func runIngest(ctx context.Context, opts ingestOptions, stdout io.Writer, fn ingestFunc) error {
	dst, err := opts.openLake()
	if err != nil {
		return err
	}
	st, err := fn(ctx, dst, ingest.Options{
		Replace:  opts.replace,
		Logger:   opts.logger(),
		Progress: progress(opts.stderr, "rows"),
	})
	clearProgress(opts.stderr)
	if err != nil {
		return printRejected(opts.stderr, err)
	}
	if opts.json {
		return render.JSON(stdout, st)
	}
	printIngestSummary(stdout, st)
	return nil
}

func printIngestSummary(w io.Writer, st ingest.Stats) {
	tables := make([]string, 0, len(st.Tables))
	for t := range st.Tables {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, t := range tables {
		s := st.Tables[t]
		line := fmt.Sprintf("%s: %d new, %d unchanged", t, s.Added, s.Unchanged)
		if s.Replaced > 0 {
			line += fmt.Sprintf(", %d replaced", s.Replaced)
		}
		fmt.Fprintln(w, line)
	}
	if len(tables) == 0 {
		fmt.Fprintln(w, "nothing to ingest")
	}
	if st.NeedsReview > 0 {
		fmt.Fprintf(w, "needs review: %d categor%s outside the seven codes kept raw (see view categories)\n", st.NeedsReview, plural(st.NeedsReview, "y", "ies"))
	}
	for _, warn := range st.Warnings {
		fmt.Fprintf(w, "warning: %s\n", strings.TrimSpace(warn))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
