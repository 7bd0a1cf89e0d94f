package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/derived"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/queries/spark"
	"github.com/trustlake/trustlake/render"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/trust"
)

// trustOptions are the flags of trustlake trust.
type trustOptions struct {
	globalOptions
	benchmarks []string
	json       bool
	audit      trust.Options       // checked (trust.CheckOptions)
	labeler    *trust.ModelLabeler // nil: no model judge (D2 suspects stay unconfirmed)
	engine     engineOptions
}

func trustCommand() *cli.Command {
	return &cli.Command{
		Name:      "trust",
		Usage:     "audit recorded results with the Trust Layer (D1–D4, strict conjunction)",
		ArgsUsage: " ",
		Description: "Reads the results table (with each result's trajectory from actions, and the\n" +
			"ground truth of the lake episode a result points at), runs the four checks —\n" +
			"D1 the grader re-run offline, D2 provenance of answer values, D3 success claims\n" +
			"on re-graded failures, D4 stability across the other trials of the task — and\n" +
			"calls a recorded pass trusted only when every dimension of the conjunction holds.\n" +
			"Each result gets per dimension passed, failed or not_checkable(reason) (no\n" +
			"re-gradable output, no trajectory, no final message, too few repeats,\n" +
			"infrastructure failure); the trusted rate is computed over the recorded passes\n" +
			"checkable on every chosen dimension, and every table states that scope.\n" +
			"--dimensions picks the conjunction (default: all that apply); a dimension that\n" +
			"can check nothing gets a one-line notice. A result marked infra_error is never a\n" +
			"recorded pass (a marked pass is a data warning). Prints the tables\n" +
			"(Markdown, or the report as JSON with --json) and stores one row per result in\n" +
			"table trust (partition benchmark=). The audit is derived data: re-running it on\n" +
			"the same lake is a no-op, and a result whose audit changed (new trials, other\n" +
			"flags) has its row replaced. Recorded scores are never changed.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "benchmark", Usage: "audit only `BENCHMARK` (repeatable; default: every benchmark)"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.StringFlag{Name: "d2-unconfirmed", Value: trust.PolicyLenient, Usage: "D2 values with no judge vote: lenient (count as clean) or strict (remove the pass)"},
			&cli.IntFlag{Name: "repeats", Value: 5, Usage: "D4: compare each result with at most `N` other trials of its task"},
			&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "Wilson interval level (0.05: 95%)"},
			&cli.StringFlag{Name: "dimensions", Usage: "the conjunction, e.g. `D3,D4` (default: every dimension that can check at least one recorded pass)"},
			&cli.StringFlag{Name: "infra-policy", Value: trust.InfraExclude, Usage: "results marked infra_error: exclude (leave every count) or failure (a failed run of score 0); never a recorded pass"},
			&cli.IntFlag{Name: "pass-k", Usage: "pass^k for k = 1..`K` on the tasks with ≥ K valid runs (default: the largest K at least half the tasks reach)"},
			&cli.IntFlag{Name: "bootstrap", Value: 2000, Usage: "task-clustered bootstrap resamples of the D4 varied rate and pass^k"},
			&cli.Uint64Flag{Name: "seed", Value: trust.DefaultSeed, Usage: "bootstrap seed (same seed, same intervals)"},
			&cli.IntFlag{Name: "min-repeats", Value: 1, Usage: "D4: fewer than `N` other valid trials of the task is not checkable (too few repeats)"},
			&cli.StringFlag{Name: "labeler", Usage: "model judge `BACKEND` (openai, anthropic, exec) for D2 suspects (3 votes, strict majority, a tie is clean) and untyped D1 gates; same flags as judge"},
		}, append(backendFlags(), engineFlags()...)...),
		Action: cmdline.NoArgs("trustlake trust --benchmark tau-bench-airline", func(c *cli.Context) error {
			eo, err := engineOpts(c)
			if err != nil {
				return err
			}
			opts := trustOptions{globalOptions: globals(c), benchmarks: c.StringSlice("benchmark"), json: c.Bool("json"),
				audit: trust.Options{Repeats: c.Int("repeats"), MinRepeats: c.Int("min-repeats"),
					D2Policy: c.String("d2-unconfirmed"), Alpha: c.Float64("alpha"), InfraPolicy: c.String("infra-policy"),
					PassK: c.Int("pass-k"), Resamples: c.Int("bootstrap"), Seed: c.Uint64("seed")}, engine: eo}
			if name := c.String("labeler"); name != "" {
				if name == "rm-http" {
					return usageErrorf("trust: --labeler rm-http: a reward model gives scores, not votes; use openai, anthropic or exec")
				}
				b, err := judge.NewBackend(judge.BackendSpec{Name: name, Model: c.String("model"), BaseURL: c.String("base-url"),
					KeyEnv: c.String("api-key-env"), Command: c.String("exec"), PassEnv: c.StringSlice("pass-env"), Conns: 1})
				if err != nil {
					return err
				}
				opts.labeler = &trust.ModelLabeler{Backend: b, Model: c.String("model"), Temperature: c.Float64("temperature"),
					MaxTokens: c.Int("max-tokens"), Retries: c.Int("retries")}
			}
			if opts.audit, err = trust.CheckOptions(opts.audit, c.String("dimensions")); err != nil {
				return err
			}
			return runTrust(c.Context, opts, c.App.Writer)
		}),
	}
}

// trustJSON is the --json output: the report and what was stored.
type trustJSON struct {
	trust.Report
	Stored storedJSON `json:"stored"`
}

type storedJSON struct {
	Table     string `json:"table"`
	New       int64  `json:"new"`
	Unchanged int64  `json:"unchanged"`
	Replaced  int64  `json:"replaced"`
}

func runTrust(ctx context.Context, opts trustOptions, stdout io.Writer) error {
	src, err := opts.openLakeRead()
	if err != nil {
		return err
	}
	rep, rows, err := auditLake(ctx, src, opts)
	if err != nil {
		return err
	}
	ts, err := derived.Write(ctx, src, lake.Trust, rows)
	if err != nil {
		return fmt.Errorf("store audit: %w", err)
	}
	stored := storedJSON{Table: lake.Trust, New: ts.Added, Unchanged: ts.Unchanged, Replaced: ts.Replaced}
	if opts.json {
		return render.JSON(stdout, trustJSON{Report: rep, Stored: stored})
	}
	if err := trust.WriteMarkdown(stdout, rep); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\ntrust: %d new, %d unchanged, %d replaced\n", stored.New, stored.Unchanged, stored.Replaced)
	return err
}

// auditLake opens a session over the lake, scopes it to the benchmarks and
// runs the Trust Layer's streaming audit (trust.AuditSource) on it.
func auditLake(ctx context.Context, src *lake.Lake, opts trustOptions) (trust.Report, []schema.Trust, error) {
	sess, err := openTrustSource(ctx, src, opts)
	if err != nil {
		return trust.Report{}, nil, err
	}
	defer sess.Close()
	if err := checkBenchmarks(ctx, sess, src, opts.benchmarks); err != nil {
		return trust.Report{}, nil, err
	}
	if err := sess.TrustScope(ctx, opts.benchmarks); err != nil {
		return trust.Report{}, nil, err
	}
	rep, rows, err := trust.AuditSource(ctx, sess, opts.audit, trust.SourceOptions{
		Labeler:          opts.labeler,
		Progress:         progress(opts.stderr, "results audited"),
		QuestionProgress: countProgress(opts.stderr, "labeller questions"),
	})
	clearProgress(opts.stderr)
	return rep, rows, err
}

// trustSource is what the audit reads the lake through: the embedded
// DuckDB session or a Spark Connect one (--engine sc://…).
type trustSource interface {
	trust.Source
	TrustBenchmarks(ctx context.Context) ([]queries.BenchmarkCount, error)
	TrustScope(ctx context.Context, benchmarks []string) error
	Close() error
}

func openTrustSource(ctx context.Context, src *lake.Lake, opts trustOptions) (trustSource, error) {
	if opts.engine.engine == "" || opts.engine.engine == engineDuckDB {
		return queries.Open(ctx, src, queries.Options{Logger: opts.logger()})
	}
	return spark.Open(ctx, opts.engine.engine, spark.Options{LakeURI: opts.engine.uri(src.Root()), Logger: opts.logger()})
}

// checkBenchmarks fails with a usage error when the lake has no results or
// a requested benchmark has none, naming the benchmarks that exist.
func checkBenchmarks(ctx context.Context, sess trustSource, src *lake.Lake, want []string) error {
	have, err := sess.TrustBenchmarks(ctx)
	if err != nil {
		return err
	}
	if len(have) == 0 {
		return usageHint("trustlake ingest tau-bench FILE.json  (or: trustlake ingest results FILE.jsonl)",
			"trust: the lake at %s has no results to audit", src.Root())
	}
	known := map[string]bool{}
	names := make([]string, len(have))
	for i, b := range have {
		known[b.Benchmark] = true
		names[i] = fmt.Sprintf("%s (%d results)", b.Benchmark, b.Results)
	}
	for _, b := range want {
		if !known[b] {
			return usageHint("trustlake trust --benchmark "+have[0].Benchmark,
				"trust: no results for benchmark %q; the lake has: %s", b, strings.Join(names, ", "))
		}
	}
	return nil
}
