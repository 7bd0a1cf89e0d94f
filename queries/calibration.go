package queries

import (
	"context"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Forecast is one judge's probability of success for one episode
// (sql/calibration_forecasts.sql) with the episode's task and ground truth.
type Forecast struct {
	Judge, Condition, EpisodeID, TaskID string
	GTPass                              bool
	Prob                                float64
	Scored                              bool    // from reward-model scores
	MinScore, MaxScore                  float64 // of the score-only runs (NaN without)
}

// CalibrationForecasts returns the forecasts of every judge × condition
// over the episodes of source with ground truth, ordered by judge,
// condition and episode. Episodes whose runs give no probability (no
// confidence, no score) are left out.
func (s *Session) CalibrationForecasts(ctx context.Context, source string) ([]Forecast, error) {
	var out []Forecast
	in := interner{}
	err := s.queryArrow(ctx, sqlFile("calibration_forecasts"), []any{source}, func(rec arrow.RecordBatch) error {
		c := columns{rec: rec}
		judge, condition := column[*array.String](&c, 0), column[*array.String](&c, 1)
		episode, task := column[*array.String](&c, 2), column[*array.String](&c, 3)
		gt, scored := column[*array.Boolean](&c, 4), column[*array.Boolean](&c, 6)
		prob := column[*array.Float64](&c, 5)
		lo, hi := column[*array.Float64](&c, 7), column[*array.Float64](&c, 8)
		if c.err != nil {
			return c.err
		}
		ids := idsOf(episode)
		for i := range int(rec.NumRows()) {
			out = append(out, Forecast{Judge: in.get(judge, i), Condition: in.get(condition, i), EpisodeID: ids(i),
				TaskID: in.get(task, i), GTPass: gt.Value(i), Prob: prob.Value(i), Scored: scored.Value(i),
				MinScore: nanIfNull(lo, i), MaxScore: nanIfNull(hi, i)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query calibration forecasts: %w", err)
	}
	return out, nil
}

// idsOf copies the values of a (no NULLs) in one allocation and returns
// its rows as strings over that copy.
func idsOf(a *array.String) func(int) string {
	data, offs := string(a.ValueBytes()), a.ValueOffsets()
	return func(i int) string { return data[offs[i]-offs[0] : offs[i+1]-offs[0]] }
}

// nanIfNull returns row i of a, NaN when NULL.
func nanIfNull(a *array.Float64, i int) float64 {
	if a.IsNull(i) {
		return math.NaN()
	}
	return a.Value(i)
}
