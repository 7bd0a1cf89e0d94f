package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/queries/spark"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/trust"
)

// trustOptions are the flags of trustlake trust.
type trustOptions struct {
	globalOptions
	benchmarks []string
	json       bool
	d2Policy   string
	repeats    int
	alpha      float64
	engine     engineOptions
	labeler    *trust.ModelLabeler // nil: no model judge (D2 suspects stay unconfirmed)
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
			"calls a recorded pass trusted only when all four hold. Prints the tables\n" +
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
			&cli.StringFlag{Name: "labeler", Usage: "model judge `BACKEND` (openai, anthropic, exec) for D2 suspects (3 votes, strict majority, a tie is clean) and untyped D1 gates; same flags as judge"},
		}, append(backendFlags(), engineFlags()...)...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageHint("trustlake trust --benchmark tau-bench-airline", "trust: unexpected argument %q", c.Args().First())
			}
			eo, err := engineOpts(c)
			if err != nil {
				return err
			}
			opts := trustOptions{
				globalOptions: globals(c), benchmarks: c.StringSlice("benchmark"), json: c.Bool("json"),
				d2Policy: c.String("d2-unconfirmed"), repeats: c.Int("repeats"), alpha: c.Float64("alpha"),
				engine: eo,
			}
			if name := c.String("labeler"); name != "" {
				if name == "rm-http" {
					return usageErrorf("trust: --labeler rm-http: a reward model gives scores, not votes; use openai, anthropic or exec")
				}
				b, err := newBackend(backendSpec{name: name, model: c.String("model"), baseURL: c.String("base-url"),
					keyEnv: c.String("api-key-env"), command: c.String("exec"), conns: 1})
				if err != nil {
					return err
				}
				opts.labeler = &trust.ModelLabeler{Backend: b, Model: c.String("model"), Temperature: c.Float64("temperature"),
					MaxTokens: c.Int("max-tokens"), Retries: c.Int("retries")}
			}
			return runTrust(c.Context, opts, c.App.Writer)
		},
	}
}

func (o trustOptions) auditOptions() (trust.Options, error) {
	if o.d2Policy != trust.PolicyLenient && o.d2Policy != trust.PolicyStrict {
		return trust.Options{}, usageErrorf("trust: --d2-unconfirmed %q: want lenient or strict", o.d2Policy)
	}
	if o.repeats < 1 {
		return trust.Options{}, usageErrorf("trust: --repeats must be ≥ 1, got %d", o.repeats)
	}
	if !(o.alpha > 0 && o.alpha < 1) {
		return trust.Options{}, usageErrorf("trust: --alpha must lie in (0, 1), got %g", o.alpha)
	}
	return trust.Options{Repeats: o.repeats, MinRepeats: min(2, o.repeats), D2Policy: o.d2Policy, Alpha: o.alpha}, nil
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
	aopts, err := opts.auditOptions()
	if err != nil {
		return err
	}
	src, err := opts.openLakeRead()
	if err != nil {
		return err
	}
	rep, rows, err := auditLake(ctx, src, opts, aopts)
	if err != nil {
		return err
	}
	st, err := ingest.TrustRows(ctx, src, rows, ingest.Options{Logger: opts.logger()})
	if err != nil {
		return fmt.Errorf("store audit: %w", err)
	}
	ts := st.Tables[lake.Trust]
	stored := storedJSON{Table: lake.Trust, New: ts.Added, Unchanged: ts.Unchanged, Replaced: ts.Replaced}
	if opts.json {
		return writeJSON(stdout, trustJSON{Report: rep, Stored: stored})
	}
	if err := trust.WriteMarkdown(stdout, rep); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\ntrust: %d new, %d unchanged, %d replaced\n", stored.New, stored.Unchanged, stored.Replaced)
	return err
}

// auditLake reads the results in scope with their trajectories and ground
// truth and audits them. Trajectories are streamed one episode at a time
// into the auditor, which keeps none of them.
func auditLake(ctx context.Context, src *lake.Lake, opts trustOptions, aopts trust.Options) (trust.Report, []schema.Trust, error) {
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
	gts, err := sess.TrustGroundTruth(ctx)
	if err != nil {
		return trust.Report{}, nil, err
	}
	var results []schema.Result
	byEpisode := map[string][]int{}
	err = sess.TrustResults(ctx, func(r schema.Result) error {
		if r.EpisodeID != nil {
			byEpisode[*r.EpisodeID] = append(byEpisode[*r.EpisodeID], len(results))
		}
		results = append(results, r)
		return nil
	})
	if err != nil {
		return trust.Report{}, nil, err
	}
	var votes map[trust.VoteKey][]bool
	if opts.labeler != nil {
		if votes, err = labelSuspects(ctx, sess, opts, aopts, results, byEpisode); err != nil {
			return trust.Report{}, nil, err
		}
	}
	aud := trust.NewAuditor(aopts, votes)
	done := make([]bool, len(results))
	gateTypes := map[[2]string]string{}
	var labelErr error
	record := func(i int, acts []schema.Action) trust.Record {
		rec := trust.Record{Result: results[i], Actions: acts}
		if id := results[i].EpisodeID; id != nil {
			rec.Regrade = trust.RegradeFromGroundTruth(gts[*id])
		}
		if opts.labeler != nil && rec.Regrade != nil && labelErr == nil {
			labelErr = typeGates(ctx, opts.labeler, rec, gateTypes)
		}
		done[i] = true
		results[i] = schema.Result{} // the auditor keeps what it needs
		return rec
	}
	show := progress(opts.stderr, "results audited")
	err = sess.TrustActions(ctx, 0, func(episode string, acts []schema.Action) error {
		for _, i := range byEpisode[episode] {
			aud.Add(record(i, acts))
		}
		if show != nil {
			show(int64(aud.Len()))
		}
		return ctx.Err()
	})
	if err != nil {
		aud.Finish()
		return trust.Report{}, nil, err
	}
	for i := range results {
		if !done[i] {
			aud.Add(record(i, nil))
		}
	}
	if isTerminal(opts.stderr) {
		fmt.Fprint(opts.stderr, "\r\033[K")
	}
	if labelErr != nil {
		aud.Finish()
		return trust.Report{}, nil, fmt.Errorf("trust: type gates with the labeler: %w", labelErr)
	}
	rep, rows := aud.Finish()
	return rep, rows, nil
}

// trustSource is what the audit reads the lake through: the embedded
// DuckDB session or a Spark Connect one (--engine sc://…).
type trustSource interface {
	TrustBenchmarks(ctx context.Context) ([]queries.BenchmarkCount, error)
	TrustScope(ctx context.Context, benchmarks []string) error
	TrustGroundTruth(ctx context.Context) (map[string][]schema.GroundTruth, error)
	TrustResults(ctx context.Context, fn func(schema.Result) error) error
	TrustActions(ctx context.Context, perBucket int, fn func(episodeID string, acts []schema.Action) error) error
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

// labelSuspects is the labeller's first pass: it lists the D2 suspects of
// every result (reading the trajectories once) and asks the model judge
// three times about each.
func labelSuspects(ctx context.Context, sess trustSource, opts trustOptions, aopts trust.Options,
	results []schema.Result, byEpisode map[string][]int) (map[trust.VoteKey][]bool, error) {
	var qs []trust.Question
	seen := make([]bool, len(results))
	err := sess.TrustActions(ctx, 0, func(episode string, acts []schema.Action) error {
		for _, i := range byEpisode[episode] {
			seen[i] = true
			qs = append(qs, trust.Suspects(trust.Input{Records: []trust.Record{{Result: results[i], Actions: acts}}}, aopts)...)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	for i := range results {
		if !seen[i] {
			qs = append(qs, trust.Suspects(trust.Input{Records: []trust.Record{{Result: results[i]}}}, aopts)...)
		}
	}
	show := countProgress(opts.stderr, "labeller questions")
	out := make(map[trust.VoteKey][]bool, len(qs))
	for n, q := range qs {
		v, err := opts.labeler.Votes(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("trust: labeller on %s value %q: %w", q.ResultID, q.Value, err)
		}
		out[trust.VoteKey{ResultID: q.ResultID, Value: q.Value}] = v[:]
		if show != nil {
			show(n+1, len(qs))
		}
	}
	clearProgress(opts.stderr)
	return out, nil
}

// typeGates gives every untyped gate of a regrade the type a 3-vote judge
// agrees on (cached per task text and gate id).
func typeGates(ctx context.Context, lab *trust.ModelLabeler, rec trust.Record, cache map[[2]string]string) error {
	task := ""
	if rec.Result.Instruction != nil {
		task = *rec.Result.Instruction
	}
	for i := range rec.Regrade.Gates {
		g := &rec.Regrade.Gates[i]
		if g.Type != "" {
			continue
		}
		key := [2]string{task, g.ID}
		if t, ok := cache[key]; ok {
			g.Type = t
			continue
		}
		t, _, err := lab.GateType(ctx, task, g.ID)
		if err != nil {
			return err
		}
		cache[key], g.Type = t, t
	}
	return nil
}
