package queries

import (
	"cmp"
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

// forecastRow is one row of the statement: pointer-free, so that holding
// hundreds of thousands costs the garbage collector nothing.
type forecastRow struct {
	episode, task int
	gt            bool
	prob          float64
}

// forecastGroup gathers the rows of one judge × condition as they come.
type forecastGroup struct {
	judge, condition string
	rows             []forecastRow
	scored           bool
	lo, hi           float64
}

// CalibrationForecasts returns the forecasts of every judge × condition
// over the episodes of source with ground truth, ordered by judge and
// condition. Episodes whose runs give no probability (no confidence, no
// score) are left out.
func (s *Session) CalibrationForecasts(ctx context.Context, source string) ([]Forecasts, error) {
	var (
		groups []*forecastGroup
		tasks  []string // by task rank
		g      *forecastGroup
	)
	err := s.queryArrow(ctx, sqlFile("calibration_forecasts"), []any{source}, func(rec arrow.RecordBatch) error {
		c := columns{rec: rec}
		judge, condition := column[*array.String](&c, 0), column[*array.String](&c, 1)
		episode, task := column[*array.Int64](&c, 2), column[*array.Int64](&c, 3)
		taskID, gt := column[*array.String](&c, 4), column[*array.Boolean](&c, 5)
		prob, scored := column[*array.Float64](&c, 6), column[*array.Boolean](&c, 7)
		lo, hi := column[*array.Float64](&c, 8), column[*array.Float64](&c, 9)
		if c.err != nil {
			return c.err
		}
		for i := range int(rec.NumRows()) {
			if g == nil || judge.Value(i) != g.judge || condition.Value(i) != g.condition {
				g = groupOf(&groups, judge.Value(i), condition.Value(i))
			}
			t := int(task.Value(i))
			if t >= len(tasks) {
				tasks = append(tasks, make([]string, t+1-len(tasks))...)
			}
			if tasks[t] == "" {
				tasks[t] = strings.Clone(taskID.Value(i))
			}
			g.rows = append(g.rows, forecastRow{episode: int(episode.Value(i)), task: t, gt: gt.Value(i), prob: prob.Value(i)})
			if scored.Value(i) {
				g.scored = true
				g.lo, g.hi = nanMin(g.lo, nanIfNull(lo, i)), nanMax(g.hi, nanIfNull(hi, i))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query calibration forecasts: %w", err)
	}
	slices.SortFunc(groups, func(a, b *forecastGroup) int {
		return cmp.Or(strings.Compare(a.judge, b.judge), strings.Compare(a.condition, b.condition))
	})
	out := make([]Forecasts, len(groups))
	for i, g := range groups {
		out[i] = g.forecasts(tasks)
	}
	return out, nil
}

// groupOf returns the group of judge × condition, adding it when new.
func groupOf(groups *[]*forecastGroup, judge, condition string) *forecastGroup {
	for _, g := range *groups {
		if g.judge == judge && g.condition == condition {
			return g
		}
	}
	g := &forecastGroup{judge: strings.Clone(judge), condition: strings.Clone(condition), lo: math.NaN(), hi: math.NaN()}
	*groups = append(*groups, g)
	return g
}

// forecasts orders the rows of g by episode rank (each rank at most once:
// the statement groups by episode) and numbers g's tasks in task_id order.
func (g *forecastGroup) forecasts(tasks []string) Forecasts {
	f := Forecasts{Judge: g.judge, Condition: g.condition, Scored: g.scored, MinScore: g.lo, MaxScore: g.hi,
		Task: make([]int, len(g.rows)), GTPass: make([]bool, len(g.rows)), Prob: make([]float64, len(g.rows))}
	last := 0
	for _, r := range g.rows {
		last = max(last, r.episode)
	}
	at := make([]int32, last+1) // row index + 1 per episode rank, 0 when absent
	in := make([]bool, len(tasks))
	for i, r := range g.rows {
		at[r.episode] = int32(i + 1)
		in[r.task] = true
	}
	for t := range in {
		if in[t] {
			f.Tasks = append(f.Tasks, tasks[t])
		}
	}
	slices.Sort(f.Tasks)
	local := make([]int, len(tasks)) // task rank → index into f.Tasks
	for t := range in {
		if in[t] {
			local[t], _ = slices.BinarySearch(f.Tasks, tasks[t])
		}
	}
	k := 0
	for _, i := range at {
		if i == 0 {
			continue
		}
		r := g.rows[i-1]
		f.Task[k], f.GTPass[k], f.Prob[k] = local[r.task], r.gt, r.prob
		k++
	}
	return f
}

// nanMin is min ignoring NaN (NaN when both are).
func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

// nanMax is max ignoring NaN (NaN when both are).
func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
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
