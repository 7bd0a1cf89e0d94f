package nightly

import (
	"cmp"
	"context"
	"log/slog"
	"runtime"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
	"github.com/trustlake/trustlake/trust"
)

// Options configure Build and CompareBaseline. Zero values mean the
// defaults of trustlake report's flags where one exists.
type Options struct {
	Title   string
	LakeDir string // shown in the provenance
	Version string // trustlake's version, shown in the provenance

	Source          string   // episode source of the headline rows; "" means natural
	UncertainPolicy string   // metrics.Uncertain*; "" means failure
	Alpha           float64  // 0 means 0.05
	Resamples       int      // task-cluster bootstrap resamples; 0 means 2000
	Seed            uint64   // 0 means metrics.DefaultSeed
	Threshold       *float64 // reward models: score >= T is success (nil: their own section)
	Threads         int      // DuckDB threads; 0 means one per core but one
	FPRTarget       float64  // reward models' cross-fitted threshold and checklists' target; 0 means 0.05
	Folds           int      // cross-fitting folds; 0 means 5
	D2Policy        string   // Trust Layer D2 policy, shown in the provenance
	Repeats         int      // Trust Layer D4 repeats, shown in the provenance

	Checklists []queries.JudgeCondition // training-signal checklists to add

	// Adjust is the family control of the baseline's change tests
	// (stats.AdjustBH, the default, stats.AdjustHolm or stats.AdjustNone)
	// and Q their level; 0 means 0.05.
	Adjust string
	Q      float64

	// Bins is the number of equal-width and of equal-mass bins of the
	// calibration section; 0 means 10.
	Bins int

	// Audit runs the Trust Layer audit of the lake when it has recorded
	// results (nil: no Trust Layer section). cmd/trustlake wires the
	// audit's own session (DuckDB or Spark Connect) here.
	Audit func(ctx context.Context, src *lake.Lake) (trust.Report, error)

	Logger *slog.Logger // nil discards
}

func (o Options) withDefaults() Options {
	o.Source = cmp.Or(o.Source, "natural")
	o.UncertainPolicy = cmp.Or(o.UncertainPolicy, metrics.UncertainFailure)
	o.Alpha = cmp.Or(o.Alpha, 0.05)
	o.Resamples = cmp.Or(o.Resamples, 2000)
	o.Seed = cmp.Or(o.Seed, metrics.DefaultSeed)
	o.FPRTarget = cmp.Or(o.FPRTarget, 0.05)
	o.Folds = cmp.Or(o.Folds, 5)
	o.Adjust = cmp.Or(o.Adjust, stats.AdjustBH)
	o.Q = cmp.Or(o.Q, 0.05)
	o.Bins = cmp.Or(o.Bins, 10)
	o.Logger = cmp.Or(o.Logger, slog.New(slog.DiscardHandler))
	// A core is left to the Go statistics that run beside the statements
	// (bootstraps of the sections whose statements ran), which would
	// otherwise share every core with DuckDB's threads.
	o.Threads = cmp.Or(o.Threads, max(1, runtime.NumCPU()-1))
	return o
}

// params are the provenance's parameters.
func (o Options) params() map[string]any {
	return map[string]any{"source": o.Source, "uncertain_policy": o.UncertainPolicy, "alpha": o.Alpha,
		"bootstrap": o.Resamples, "seed": o.Seed, "threshold": o.Threshold, "fpr_target": o.FPRTarget,
		"folds": o.Folds, "d2_unconfirmed": o.D2Policy, "repeats": o.Repeats, "adjust": o.Adjust, "q": o.Q, "bins": o.Bins}
}
