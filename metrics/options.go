package metrics

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// Uncertain policies: how a majority "uncertain" counts in the confusion
// matrix.
const (
	UncertainFailure = "failure" // as a rejection (default)
	UncertainSuccess = "success" // as an acceptance
	UncertainExclude = "exclude" // left out of the matrix (still in uncertain_rate)
)

// Strata dimensions of Options.By.
const (
	ByCategory = "category"
	BySource   = "source"
	ByHardness = "hardness"
	ByTask     = "task"
	ByAgent    = "agent"
)

// Stratum values that are not a category or hardness of a failure.
const (
	StratumPass = "(pass)" // GT-passed episodes in category and hardness strata
	StratumNone = "(none)" // GT failures without a (known) category
)

// DefaultSeed is the bootstrap seed when Options.Seed is 0 (seed §4.6).
const DefaultSeed = 20261010

// Options configure Run. Zero values mean the defaults.
type Options struct {
	Judges     []string // only these judges; nil means all
	Conditions []string // only these conditions; nil means all
	// By lists strata dimensions (ByCategory, ...); each gives its own rows
	// beside the overall row.
	By []string
	// Source is the episode source of the headline rows (overall and every
	// stratum but source); "" means natural. Rows of the source stratum
	// show each source on its own, so perturbed episodes never mix into
	// the headline.
	Source          string
	UncertainPolicy string   // "" means UncertainFailure
	Alpha           float64  // two-sided level of every interval; 0 means 0.05
	Resamples       int      // bootstrap resamples; 0 means 2000
	Seed            uint64   // bootstrap seed; 0 means DefaultSeed
	Threshold       *float64 // score-only judges: score >= Threshold is success; nil skips them
	// GT is the reference the judge is measured against: queries.GTVerifier
	// (default), queries.GTHuman (the majority of human judgments) or
	// queries.GTAny (the verifier's, else the human majority).
	GT string
	// StrataFPROnly bootstraps only the FPR of stratum rows (their other
	// metrics keep null bootstrap intervals): the report shows nothing else
	// of a stratum, and the FPR interval is the one a full run gives (same
	// draws, same counts). Overall rows are always complete.
	StrataFPROnly bool
	// Adjust, when set (stats.AdjustBH, stats.AdjustHolm or
	// stats.AdjustNone), tests every stratum's FPR against the rest of its
	// judge × condition (Row.VsRest) and adjusts those tests as one family
	// at level Q (0 means 0.05).
	Adjust string
	Q      float64

	stop <-chan struct{} // the caller's ctx.Done(): long loops stop on it
}

// MaxResamples bounds Options.Resamples: every row keeps 12 float64 per
// resample in memory, so 50 million resamples ran out of memory.
const MaxResamples = 1_000_000

// boot returns the bootstrap options of o, stopping when its context ends.
func (o Options) boot() stats.BootstrapOptions {
	return stats.BootstrapOptions{Resamples: o.Resamples, Alpha: o.Alpha, Seed: o.Seed, Stop: o.stop}
}

func (o Options) withDefaults() (Options, error) {
	o.Source, o.UncertainPolicy = cmp.Or(o.Source, schema.SourceNatural), cmp.Or(o.UncertainPolicy, UncertainFailure)
	o.Alpha, o.Resamples, o.Seed = cmp.Or(o.Alpha, 0.05), cmp.Or(o.Resamples, 2000), cmp.Or(o.Seed, DefaultSeed)
	o.GT, o.Q = cmp.Or(o.GT, queries.GTVerifier), cmp.Or(o.Q, 0.05)
	if !slices.Contains([]string{queries.GTVerifier, queries.GTHuman, queries.GTAny}, o.GT) {
		return o, fmt.Errorf("%w: --gt %q: want verifier, human or any", ErrBadOption, o.GT)
	}
	if !slices.Contains(schema.Sources, o.Source) {
		return o, fmt.Errorf("%w: source %q: want one of %s", ErrBadOption, o.Source, strings.Join(schema.Sources, ", "))
	}
	if !slices.Contains([]string{UncertainFailure, UncertainSuccess, UncertainExclude}, o.UncertainPolicy) {
		return o, fmt.Errorf("%w: uncertain policy %q: want failure, success or exclude", ErrBadOption, o.UncertainPolicy)
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return o, fmt.Errorf("%w: alpha %v: must be in (0, 1)", ErrBadOption, o.Alpha)
	}
	if o.Resamples < 0 {
		return o, fmt.Errorf("%w: bootstrap %d: must be positive", ErrBadOption, o.Resamples)
	}
	if o.Resamples > MaxResamples {
		return o, fmt.Errorf("%w: bootstrap %d: at most %d (the resamples of every row are held in memory)", ErrBadOption, o.Resamples, MaxResamples)
	}
	if o.Adjust != "" && !slices.Contains(stats.Adjustments, o.Adjust) {
		return o, fmt.Errorf("%w: --adjust %q: want one of %s", ErrBadOption, o.Adjust, strings.Join(stats.Adjustments, ", "))
	}
	if !(o.Q > 0 && o.Q < 1) {
		return o, fmt.Errorf("%w: q %v: must be in (0, 1)", ErrBadOption, o.Q)
	}
	var by []string
	for _, b := range o.By {
		if !slices.Contains([]string{ByCategory, BySource, ByHardness, ByTask, ByAgent}, b) {
			return o, fmt.Errorf("%w: --by %q: want category, source, hardness, task or agent", ErrBadOption, b)
		}
		if !slices.Contains(by, b) {
			by = append(by, b)
		}
	}
	o.By = by
	return o, nil
}

// Errors of bad input: a cmd maps them to usage errors.
var (
	// ErrBadOption is an invalid option value.
	ErrBadOption = errors.New("bad option")
	// ErrUnknown is a judge or condition the lake does not hold; the
	// message lists what exists.
	ErrUnknown = errors.New("unknown judge or condition")
	// ErrNoVerdicts means the lake holds no verdicts.
	ErrNoVerdicts = errors.New("no verdicts")
	// ErrNoGroundTruth means no judged episode has ground truth, so no
	// metric can be computed.
	ErrNoGroundTruth = errors.New("no ground truth")
	// ErrScoreOnly means a score-only judge (reward model) was asked for
	// without a threshold.
	ErrScoreOnly = errors.New("score-only judge needs a threshold")
)
