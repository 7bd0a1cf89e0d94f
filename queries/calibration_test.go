package queries

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// The rows of a judge × condition come in any order: forecasts orders them
// by episode rank and numbers the tasks they hold in sorted order, leaving
// out tasks of other judges × conditions.
func TestForecastsOrderAndTasks(t *testing.T) {
	tasks := []string{"t-b", "t-a", "t-c", "t-d"} // by task rank; t-d held by no row here
	rows := []forecastRow{{episode: 7, task: 2, gt: true, prob: 0.7}, {episode: 0, task: 0, prob: 0.1},
		{episode: 4, task: 1, gt: true, prob: 0.4}, {episode: 2, task: 2, prob: 0.2}, {episode: 5, task: 0, gt: true, prob: 0.5}}
	want := Forecasts{Judge: "j", Condition: "c", Tasks: []string{"t-a", "t-b", "t-c"}, Task: []int{1, 2, 0, 1, 2},
		GTPass: []bool{false, false, true, true, true}, Prob: []float64{0.1, 0.2, 0.4, 0.5, 0.7}, Scored: true, MinScore: 0.1, MaxScore: 0.9}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		g := &forecastGroup{judge: "j", condition: "c", rows: rows, scored: true, lo: 0.1, hi: 0.9}
		if got := g.forecasts(tasks); !reflect.DeepEqual(got, want) {
			t.Fatalf("rows %v:\n got %+v\nwant %+v", rows, got, want)
		}
	}
}
