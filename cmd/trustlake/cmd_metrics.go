package main

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// metricFlags are the flags shared by metrics, compare and checklist.
func metricFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "print everything as JSON"},
		&cli.StringFlag{Name: "uncertain-policy", Value: metrics.UncertainFailure, Usage: "a majority 'uncertain' counts as failure, success or exclude"},
		&cli.Float64Flag{Name: "alpha", Value: 0.05, Usage: "two-sided level of every interval"},
		&cli.IntFlag{Name: "bootstrap", Value: 2000, Usage: "task-clustered bootstrap resamples"},
		&cli.Uint64Flag{Name: "seed", Value: metrics.DefaultSeed, Usage: "bootstrap seed (same seed, same intervals)"},
		&cli.Float64Flag{Name: "threshold", Usage: "score-only judges (reward models): score >= `T` is success"},
		&cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: all cores)"},
	}
}

// metricCommon are the values of metricFlags.
type metricCommon struct {
	json      bool
	policy    string
	alpha     float64
	resamples int
	seed      uint64
	threshold *float64
	threads   int
	engine    engineOptions // metrics and compare only
}

func metricCommonOpts(c *cli.Context) (metricCommon, error) {
	m := metricCommon{json: c.Bool("json"), policy: c.String("uncertain-policy"), alpha: c.Float64("alpha"),
		resamples: c.Int("bootstrap"), seed: c.Uint64("seed"), threads: c.Int("threads"), threshold: thresholdOpt(c)}
	return m, checkResampling(m.resamples, m.seed)
}

// checkResampling refuses a --bootstrap or --seed that is not positive.
func checkResampling(resamples int, seed uint64) error {
	if resamples <= 0 {
		return usageErrorf("--bootstrap %d: must be positive", resamples)
	}
	if seed == 0 {
		return usageErrorf("--seed 0: use a positive seed (0 means the default, %d)", metrics.DefaultSeed)
	}
	return nil
}

// metricsError turns the metrics package's input errors into usage errors
// (exit 2); other errors pass through.
func metricsError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, metrics.ErrNoVerdicts), errors.Is(err, metrics.ErrNoGroundTruth):
		return usageHint("trustlake ingest episodes DIR && trustlake ingest verdicts FILE.jsonl", "%v", err)
	case errors.Is(err, metrics.ErrScoreOnly):
		return usageHint("trustlake metrics --threshold 0.5, or trustlake threshold --judge J --condition C --fpr-target 0.05", "%v", err)
	case errors.Is(err, metrics.ErrUnknown), errors.Is(err, metrics.ErrBadOption):
		return usageErrorf("%v", err)
	}
	return err
}

// inSession opens a DuckDB session over the lake, runs fn in it and maps
// metrics errors to exit codes.
func inSession[R any](ctx context.Context, g globalOptions, threads int, fn func(*queries.Session) (R, error)) (R, error) {
	s, err := openSession(ctx, g, nil, threads)
	if err != nil {
		var zero R
		return zero, err
	}
	defer s.Close()
	r, err := fn(s)
	return r, metricsError(err)
}

func metricsCommand() *cli.Command {
	return &cli.Command{
		Name:  "metrics",
		Usage: "judge metrics against ground truth: FPR, FDR, TPR, inflation, kappa, consistency",
		Description: "Runs become one verdict per (episode, judge, condition) by majority (parse errors\n" +
			"dropped; a tie or no valid run is uncertain). Per judge × condition × stratum:\n" +
			"confusion counts and every rate with a Wilson and a task-clustered bootstrap\n" +
			"interval. Headline rows use --source (natural); --by source shows each source\n" +
			"(perturbed episodes are never mixed into the headline). Episodes without ground\n" +
			"truth are excluded and counted in a warning. --gt picks the reference: the\n" +
			"verifier's verdict, the majority of human judgments (trustlake ingest\n" +
			"human-labels; a tie gives none), or any (verifier, else human). accuracy is the\n" +
			"agreement with the reference, beside Cohen's kappa.\n" + exitCodesHelp,
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "judge", Usage: "only this judge (repeatable)"},
			&cli.StringSliceFlag{Name: "condition", Usage: "only this evidence condition (repeatable)"},
			&cli.StringSliceFlag{Name: "by", Usage: "strata: category, source, hardness, task or agent (repeatable)"},
			&cli.StringFlag{Name: "source", Value: "natural", Usage: "episode source of the headline rows"},
			gtFlag(),
			&cli.StringFlag{Name: "adjust", Usage: "test each stratum's FPR against the rest of its judge × condition, adjusted as one family: bh, holm or none (raw)"},
			qFlag(),
			&cli.BoolFlag{Name: "agreement", Usage: "add Krippendorff's alpha between runs, judges and human annotators (\"agreement\" in --json)"},
			&cli.BoolFlag{Name: "calibration", Usage: "add Brier score and ECE of judge confidences and reward-model scores (\"calibration\" in --json)"},
			&cli.IntFlag{Name: "bins", Value: 10, Usage: "calibration: `N` equal-width and N equal-mass bins"},
		}, append(metricFlags(), engineFlags()...)...),
		Action: cmdline.NoArgs("trustlake metrics --by category --json", func(c *cli.Context) error {
			mc, err := metricCommonOpts(c)
			if err != nil {
				return err
			}
			if mc.engine, err = engineOpts(c); err != nil {
				return err
			}
			opts := metrics.Options{Judges: c.StringSlice("judge"), Conditions: c.StringSlice("condition"),
				By: c.StringSlice("by"), Source: c.String("source"), UncertainPolicy: mc.policy, Alpha: mc.alpha,
				Resamples: mc.resamples, Seed: mc.seed, Threshold: mc.threshold, GT: c.String("gt"),
				Adjust: c.String("adjust"), Q: c.Float64("q")}
			agreement, calibration, bins := c.Bool("agreement"), c.Bool("calibration"), c.Int("bins")
			if bins < 1 {
				return usageErrorf("--bins %d: must be positive", bins)
			}
			if (agreement || calibration) && mc.engine.engine != "" && mc.engine.engine != engineDuckDB {
				return usageErrorf("--agreement and --calibration run on the embedded DuckDB engine only")
			}
			if a := opts.Adjust; a != "" {
				if err := checkAdjust(a, opts.Q); err != nil {
					return err
				}
				if len(opts.By) == 0 {
					return usageHint("trustlake metrics --by category --adjust bh", "--adjust tests strata: give --by")
				}
			}
			ctx := c.Context
			rep, err := onEngine(ctx, globals(c), mc.engine, mc.threads, func(s metrics.Engine) (metrics.Report, error) {
				rep, err := metrics.Run(ctx, s, opts)
				if err != nil || (!agreement && !calibration) {
					return rep, err
				}
				eo := metrics.ExtraOptions{Source: rep.Params.Source, Threshold: opts.Threshold, Alpha: rep.Params.Alpha,
					Resamples: rep.Params.Bootstrap, Seed: rep.Params.Seed, Bins: bins}
				return rep, addExtras(ctx, s.(*queries.Session), eo, agreement, calibration, &rep)
			})
			if err != nil {
				return err
			}
			return output(c.App.Writer, c.App.ErrWriter, mc.json, rep, metrics.WriteTable, rep.Warnings)
		}),
	}
}

// addExtras adds the agreement and calibration sections asked for.
func addExtras(ctx context.Context, s *queries.Session, eo metrics.ExtraOptions, agreement, calibration bool,
	rep *metrics.Report) error {
	if agreement {
		a, err := metrics.Agreements(ctx, s, eo)
		if err != nil {
			return err
		}
		rep.Agreement = &a
	}
	if calibration {
		cal, warnings, err := metrics.Calibrations(ctx, s, eo)
		if err != nil {
			return err
		}
		rep.Calibration = cal
		rep.Warnings = append(rep.Warnings, warnings...)
	}
	return nil
}

// gtFlag is --gt of metrics and compare.
func gtFlag() cli.Flag {
	return &cli.StringFlag{Name: "gt", Value: queries.GTVerifier, Usage: "reference: verifier, human (majority of human judgments) or any (verifier, else human)"}
}

// parseJudgeCondition parses JUDGE@CONDITION (the judge may itself contain
// '@'; the last one splits).
func parseJudgeCondition(s string) (queries.JudgeCondition, error) {
	i := strings.LastIndex(s, "@")
	if i <= 0 || i == len(s)-1 {
		return queries.JudgeCondition{}, usageHint("trustlake compare sim:vlm-a@E2-lastk sim:vlm-b@E2-lastk", "%q: want JUDGE@CONDITION", s)
	}
	return queries.JudgeCondition{Judge: s[:i], Condition: s[i+1:]}, nil
}

// adjustFlag is --adjust: the family control of change and strata tests.
func adjustFlag() cli.Flag {
	return &cli.StringFlag{Name: "adjust", Value: stats.AdjustBH,
		Usage: "multiple testing: bh (Benjamini-Hochberg, false discovery rate), holm (family-wise error) or none (raw p)"}
}

// qFlag is --q: the level of the adjusted tests.
func qFlag() cli.Flag {
	return &cli.Float64Flag{Name: "q", Value: 0.05, Usage: "level of the adjusted tests: FDR under bh, family-wise error under holm, per test under none"}
}

func checkAdjust(method string, q float64) error {
	if !slices.Contains(stats.Adjustments, method) {
		return usageErrorf("--adjust %q: want one of %s", method, strings.Join(stats.Adjustments, ", "))
	}
	if !(q > 0 && q < 1) {
		return usageErrorf("--q %g: must lie in (0, 1)", q)
	}
	return nil
}
