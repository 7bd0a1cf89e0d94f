package metrics

import (
	"context"
	"fmt"
	"math"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

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
