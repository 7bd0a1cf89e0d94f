package queries

import (
	"reflect"
	"testing"
)

// sortTasks numbers a judge × condition's tasks in sorted order, each
// forecast keeping its task.
func TestForecastsSortTasks(t *testing.T) {
	f := Forecasts{Tasks: []string{"t-c", "t-a", "t-b"}, Task: []int{0, 1, 0, 2, 1}}
	f.sortTasks()
	want := Forecasts{Tasks: []string{"t-a", "t-b", "t-c"}, Task: []int{2, 0, 2, 1, 0}}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("got %+v, want %+v", f, want)
	}
}
