package queries

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Forecasts are one judge × condition's probabilities of success
// (sql/calibration_forecasts.sql), one per episode in episode_id order,
// with each episode's task and ground truth.
type Forecasts struct {
	Judge, Condition string
	Tasks            []string  // the tasks of the episodes, sorted, each once
	Task             []int     // per forecast: its task, an index into Tasks
	GTPass           []bool    // per forecast: the verifier's verdict
	Prob             []float64 // per forecast: the probability of success
	Scored           bool      // some run was score-only (a reward model's score)
	MinScore         float64   // least score of the score-only runs (NaN without)
	MaxScore         float64   // greatest score of the score-only runs (NaN without)
}

// CalibrationForecasts returns the forecasts of every judge × condition
// over the episodes of source with ground truth, ordered by judge and
// condition. Episodes whose runs give no probability (no confidence, no
// score) are left out.
func (s *Session) CalibrationForecasts(ctx context.Context, source string) ([]Forecasts, error) {
	var (
		out   []Forecasts
		tasks map[string]int // of the last judge × condition: task → its index in Tasks so far
	)
	err := s.queryArrow(ctx, sqlFile("calibration_forecasts"), []any{source}, func(rec arrow.RecordBatch) error {
		c := columns{rec: rec}
		judge, condition, task := column[*array.String](&c, 0), column[*array.String](&c, 1), column[*array.String](&c, 2)
		gt, prob, scored := column[*array.Boolean](&c, 3), column[*array.Float64](&c, 4), column[*array.Boolean](&c, 5)
		lo, hi := column[*array.Float64](&c, 6), column[*array.Float64](&c, 7)
		if c.err != nil {
			return c.err
		}
		for i := range int(rec.NumRows()) {
			if len(out) == 0 || judge.Value(i) != out[len(out)-1].Judge || condition.Value(i) != out[len(out)-1].Condition {
				out = append(out, Forecasts{Judge: strings.Clone(judge.Value(i)), Condition: strings.Clone(condition.Value(i)),
					MinScore: math.NaN(), MaxScore: math.NaN()})
				tasks = map[string]int{}
			}
			f := &out[len(out)-1]
			t, ok := tasks[task.Value(i)]
			if !ok {
				t = len(f.Tasks)
				f.Tasks = append(f.Tasks, strings.Clone(task.Value(i)))
				tasks[f.Tasks[t]] = t
			}
			f.Task, f.GTPass, f.Prob = append(f.Task, t), append(f.GTPass, gt.Value(i)), append(f.Prob, prob.Value(i))
			if scored.Value(i) {
				f.Scored = true
				f.MinScore, f.MaxScore = nanMin(f.MinScore, nanIfNull(lo, i)), -nanMin(-f.MaxScore, -nanIfNull(hi, i))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query calibration forecasts: %w", err)
	}
	for i := range out {
		out[i].sortTasks()
	}
	return out, nil
}

// sortTasks sorts f.Tasks (first-seen order until then) and renumbers
// f.Task to match.
func (f *Forecasts) sortTasks() {
	seen := f.Tasks
	f.Tasks = slices.Sorted(slices.Values(seen))
	at := make([]int, len(seen)) // first-seen index → sorted index
	for i, id := range seen {
		at[i], _ = slices.BinarySearch(f.Tasks, id)
	}
	for i, t := range f.Task {
		f.Task[i] = at[t]
	}
}

// nanMin is min ignoring NaN (NaN when both are); -nanMin(-a, -b) is the
// max.
func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

// nanIfNull returns row i of a, NaN when NULL.
func nanIfNull(a *array.Float64, i int) float64 {
	if a.IsNull(i) {
		return math.NaN()
	}
	return a.Value(i)
}

// idsOf copies the values of a (no NULLs) in one allocation and returns
// its rows as strings over that copy.
func idsOf(a *array.String) func(int) string {
	data, offs := string(a.ValueBytes()), a.ValueOffsets()
	return func(i int) string { return data[offs[i]-offs[0] : offs[i+1]-offs[0]] }
}
