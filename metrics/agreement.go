package metrics

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// AgreementEngine reads the Krippendorff coincidences (queries.Session).
type AgreementEngine interface {
	AgreementRuns(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error)
	AgreementJudges(ctx context.Context, threshold *float64, source string) ([]queries.AgreementCell, error)
	AgreementHuman(ctx context.Context) ([]queries.AgreementCell, error)
}

var _ AgreementEngine = (*queries.Session)(nil)

// Agreement is nominal Krippendorff's α (values success, failure,
// uncertain; pass and fail for humans) between the runs of each judge ×
// condition, between the judges under each condition, and between human
// annotators, each with its task-cluster bootstrap interval. Missing values
// (parse errors, a judge without a valid run, an annotator who did not
// judge an episode) are allowed. Fleiss' κ stays in Row.FleissKappa and
// Reference.FleissKappa.
type Agreement struct {
	Runs   []AlphaRow `json:"runs"`
	Judges []AlphaRow `json:"judges"`
	Human  *AlphaRow  `json:"human"` // null without episodes judged by two or more annotators
}

// AlphaRow is one α: Units are the pairable units (episodes with two or
// more values), Tasks the bootstrap clusters, Coders the most judges one
// episode had (between judges only).
type AlphaRow struct {
	Judge     string `json:"judge,omitempty"`
	Condition string `json:"condition,omitempty"`
	Units     int    `json:"units"`
	Tasks     int    `json:"tasks"`
	Coders    int    `json:"coders,omitempty"`
	Alpha     Metric `json:"alpha"`
}

// ExtraOptions configure Agreements and Calibrations; zero values mean the
// defaults of Options.
type ExtraOptions struct {
	Source    string   // "" means natural
	Threshold *float64 // reward models count with a threshold only (agreement)
	Alpha     float64
	Resamples int
	Seed      uint64
	Bins      int // calibration bins; 0 means 10
}

func (o ExtraOptions) withDefaults() ExtraOptions {
	o.Source = cmp.Or(o.Source, schema.SourceNatural)
	o.Alpha = cmp.Or(o.Alpha, 0.05)
	o.Resamples = cmp.Or(o.Resamples, 2000)
	o.Seed = cmp.Or(o.Seed, DefaultSeed)
	o.Bins = cmp.Or(o.Bins, 10)
	return o
}

func (o ExtraOptions) boot() stats.BootstrapOptions {
	return stats.BootstrapOptions{Resamples: o.Resamples, Alpha: o.Alpha, Seed: o.Seed}
}

// Agreements computes Agreement over the episodes of opts.Source. Its
// three statements run first, the bootstraps after them: a caller that
// shares the engine gets it back before the statistics.
func Agreements(ctx context.Context, s AgreementEngine, opts ExtraOptions) (Agreement, error) {
	opts = opts.withDefaults()
	out := Agreement{Runs: []AlphaRow{}, Judges: []AlphaRow{}}
	runs, err := s.AgreementRuns(ctx, opts.Threshold, opts.Source)
	if err != nil {
		return out, err
	}
	judges, err := s.AgreementJudges(ctx, opts.Threshold, opts.Source)
	if err != nil {
		return out, err
	}
	human, err := s.AgreementHuman(ctx)
	if err != nil {
		return out, err
	}
	key := func(c queries.AgreementCell) [2]string { return [2]string{c.Judge, c.Condition} }
	for _, side := range []struct {
		cells []queries.AgreementCell
		rows  *[]AlphaRow
	}{{runs, &out.Runs}, {judges, &out.Judges}} {
		for _, g := range runsOf(side.cells, key) {
			row, err := alphaRow(g, opts)
			if err != nil {
				return out, err
			}
			*side.rows = append(*side.rows, row)
		}
	}
	if len(human) > 0 {
		row, err := alphaRow(human, opts)
		if err != nil {
			return out, err
		}
		out.Human = &row
	}
	return out, ctx.Err()
}

// runsOf splits s (ordered by key) into its runs of one key.
func runsOf[T any, K comparable](s []T, key func(T) K) [][]T {
	var out [][]T
	for i, x := range s {
		if i == 0 || key(x) != key(s[i-1]) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], x)
	}
	return out
}

// alphaRow computes α of one group of per-task cells with its interval
// (cells of the judges query carry no judge, the others no judge count).
func alphaRow(cells []queries.AgreementCell, opts ExtraOptions) (AlphaRow, error) {
	ids := make([]string, len(cells))
	per := make([]stats.Coincidences, len(cells))
	row := AlphaRow{Judge: cells[0].Judge, Condition: cells[0].Condition, Tasks: len(cells)}
	for i, c := range cells {
		row.Coders = max(row.Coders, c.Judges)
		ids[i] = c.TaskID
		m := stats.NewCoincidences(3)
		// O holds o_ss, o_ff, o_uu, o_sf, o_su, o_fu: the symmetric matrix.
		m.O[0], m.O[4], m.O[8] = c.O[0], c.O[1], c.O[2]
		m.O[1], m.O[3] = c.O[3], c.O[3]
		m.O[2], m.O[6] = c.O[4], c.O[4]
		m.O[5], m.O[7] = c.O[5], c.O[5]
		m.Units = c.Units
		per[i] = m
		row.Units += c.Units
	}
	iv, err := stats.ClusterAlpha(ids, per, opts.boot())
	if err != nil {
		return row, err
	}
	row.Alpha = bootMetric(iv)
	return row, nil
}

// CalibrationEngine reads the judges' forecasts (queries.Session).
type CalibrationEngine interface {
	CalibrationForecasts(ctx context.Context, source string) ([]queries.Forecasts, error)
}

var _ CalibrationEngine = (*queries.Session)(nil)

// Forecast kinds of CalibrationRow.Forecast.
const (
	ForecastConfidence = "confidence" // a verdict's stated confidence (1 − it for a failure)
	ForecastScore      = "score"      // a reward model's score
)

// CalibrationRow is the calibration of one judge × condition's
// probability of success against the verifier's ground truth: the Brier
// score and the expected calibration error over equal-width and
// equal-mass bins (Bins of each), each with its task-cluster bootstrap
// interval, and the equal-width reliability bins.
type CalibrationRow struct {
	Judge       string           `json:"judge"`
	Condition   string           `json:"condition"`
	Forecast    string           `json:"forecast"` // confidence or score
	N           int              `json:"n"`        // episodes with a forecast and ground truth
	Tasks       int              `json:"tasks"`
	Bins        int              `json:"bins"`
	Brier       Metric           `json:"brier"`
	ECEWidth    Metric           `json:"ece_equal_width"`
	ECEMass     Metric           `json:"ece_equal_mass"`
	Reliability []ReliabilityBin `json:"reliability"`
}

// ReliabilityBin is one equal-width bin: forecasts in [lo, hi), their
// mean and the share that passed ground truth (null when empty).
type ReliabilityBin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	N     int     `json:"n"`
	MeanP jsonNum `json:"mean_forecast"`
	FracY jsonNum `json:"frac_pass"`
}

// Calibrations computes the calibration of every judge × condition with
// forecasts over the episodes of opts.Source. A reward model whose scores
// leave [0, 1] is not a probability: it is left out with a warning.
func Calibrations(ctx context.Context, s CalibrationEngine, opts ExtraOptions) ([]CalibrationRow, []string, error) {
	opts = opts.withDefaults()
	fs, err := s.CalibrationForecasts(ctx, opts.Source)
	if err != nil {
		return nil, nil, err
	}
	out := []CalibrationRow{}
	var warnings []string
	for _, g := range fs {
		row, ok, err := calibrationRow(g, opts)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			warnings = append(warnings, fmt.Sprintf("calibration: %s@%s has scores outside [0, 1]: not a probability, left out", g.Judge, g.Condition))
			continue
		}
		out = append(out, row)
	}
	return out, warnings, ctx.Err()
}

func calibrationRow(g queries.Forecasts, opts ExtraOptions) (CalibrationRow, bool, error) {
	row := CalibrationRow{Judge: g.Judge, Condition: g.Condition, Forecast: ForecastConfidence, N: len(g.Prob),
		Tasks: len(g.Tasks), Bins: opts.Bins}
	if g.Scored {
		row.Forecast = ForecastScore
		if g.MinScore < 0 || g.MaxScore > 1 {
			return row, false, nil
		}
	}
	pts := make([]stats.Forecast, len(g.Prob))
	for i, p := range g.Prob {
		y := 0.0
		if g.GTPass[i] {
			y = 1
		}
		pts[i] = stats.Forecast{P: math.Min(math.Max(p, 0), 1), Y: y, Cluster: g.Task[i]}
	}
	ci, err := stats.ClusterCalibration(g.Tasks, pts, opts.Bins, opts.boot())
	if err != nil {
		return row, false, err
	}
	row.Brier, row.ECEWidth, row.ECEMass = bootMetric(ci.Brier), bootMetric(ci.ECEWidth), bootMetric(ci.ECEMass)
	for _, b := range stats.Reliability(pts, opts.Bins) {
		row.Reliability = append(row.Reliability, ReliabilityBin{Lo: b.Lo, Hi: b.Hi, N: b.N, MeanP: jsonNum(b.MeanP), FracY: jsonNum(b.FracY)})
	}
	return row, true, nil
}
