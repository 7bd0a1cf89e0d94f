package queries

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestFoldCellGroups: groups of one cell add up (Fleiss P̄ from the groups
// with two or more valid runs, worked out by hand), cells come ordered with
// missing task, source and ground truth last, and the result does not
// depend on the order of the groups.
func TestFoldCellGroups(t *testing.T) {
	groups := []CellGroup{
		// cell 1 of j/c: 2 episodes with 3 valid runs (pairs 6+2), 1 with 2 (pairs 0), 1 with 1
		{Judge: "j", Condition: "c", Cell: 1, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, HasGT: true, GTPass: false,
			NValid: 3, Episodes: 2, MajSuccess: 2, Runs: 6, Agree: 1, PairsAgree: 8, Success: 5, Failure: 1},
		{Judge: "j", Condition: "c", Cell: 1, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, HasGT: true, GTPass: false,
			NValid: 2, Episodes: 1, Runs: 3, ParseErrors: 1, Agree: 0, PairsAgree: 0, Success: 1, Failure: 1},
		{Judge: "j", Condition: "c", Cell: 1, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, HasGT: true, GTPass: false,
			NValid: 1, Episodes: 1, MajFailure: 1, Runs: 3, ParseErrors: 2, Agree: 1, Failure: 1},
		{Judge: "j", Condition: "c", Cell: 0, NValid: 3, Episodes: 1, MajSuccess: 1, Runs: 3, Agree: 1, PairsAgree: 6, Success: 3},
		{Judge: "j", Condition: "c", Cell: 2, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, NValid: 1, Episodes: 1, Runs: 1, Success: 1},
		{Judge: "j", Condition: "c", Cell: 3, TaskID: "t0", HasTask: true, Source: "weakened", HasSource: true, HasGT: true, GTPass: true, NValid: 1, Episodes: 1, Runs: 1},
		// a cell number too large to index: kept aside, found again
		{Judge: "a", Condition: "c", Cell: 1 << 40, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, HasGT: true, NValid: 1, Episodes: 1, Runs: 1},
		{Judge: "a", Condition: "c", Cell: 1 << 40, TaskID: "t1", HasTask: true, Source: "natural", HasSource: true, HasGT: true, NValid: 1, Episodes: 1, Runs: 1},
	}
	got := FoldCellGroups(groups)
	cell := func(judge, task string, hasTask, hasGT, pass bool) MetricCell {
		c := MetricCell{Judge: judge, Condition: "c", TaskID: task, HasTask: hasTask, HasGT: hasGT, GTPass: pass}
		if hasTask {
			c.Source = "natural"
		}
		return c
	}
	want := []MetricCell{cell("a", "t1", true, true, false), cell("j", "t0", true, true, true), cell("j", "t1", true, true, false),
		cell("j", "t1", true, false, false), cell("j", "", false, false, false)}
	want[0].Episodes, want[0].MajUncertain, want[0].Runs = 2, 2, 2
	want[1].Source, want[1].Episodes, want[1].MajUncertain, want[1].Runs = "weakened", 1, 1, 1
	w := &want[2]
	w.Episodes, w.MajSuccess, w.MajFailure, w.MajUncertain, w.Runs, w.ParseErrors = 4, 2, 1, 1, 12, 3
	w.Eligible, w.Agree, w.FleissSuccess, w.FleissFailure = 3, 1, 6, 2
	w.FleissP = 1333333333333 / 1e12 // 8 pairs of 6 (two episodes of 3 runs), to 1e-12
	want[3].Episodes, want[3].MajUncertain, want[3].Runs = 1, 1, 1
	w = &want[4]
	w.Episodes, w.MajSuccess, w.Runs, w.Eligible, w.Agree, w.FleissP, w.FleissSuccess = 1, 1, 3, 1, 1, 1, 3
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fold:\n got %+v\nwant %+v", got, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		rng.Shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
		if again := FoldCellGroups(groups); !reflect.DeepEqual(again, want) {
			t.Fatalf("groups in another order: %+v", again)
		}
	}
}
