package runcounts_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestCountsInMemory: a writer that holds at most eight run counts in
// memory (WriterOptions.CountsInMemory) writes the same run_counts rows, in
// the same order, as one that holds them all: when every episode's runs
// come together (over files rolled every 400 rows, WriterOptions.FileRows)
// and when an episode comes back after others (the file is then counted
// again once written). lake check agrees with both.
func TestCountsInMemory(t *testing.T) {
	var together []schema.Verdict
	vals := []string{"success", "failure", "uncertain", "parse_error"}
	for e := range 300 {
		ep := fmt.Sprintf("ep%03d", e*7%300) // not in ascending order
		for r := range int64(1 + e%4) {
			v := verdict(ep, "vlm", "E1", r, vals[(e+int(r))%4], int64(len(together)+1))
			if e%5 == 0 { // a verdict with a score (counted, not kept)
				sc := float64(e) / 1000
				v.Score = &sc
			}
			together = append(together, v)
		}
		for r := range int64(e % 8) { // up to seven scores: up to three rows
			together = append(together, scored(ep, "rm", "E1", r, float64(e+int(r))/1000, int64(len(together)+1)))
		}
	}
	back := slices.Concat(together, []schema.Verdict{verdict("ep007", "vlm", "E1", 99, "success", 1e6), scored("ep014", "rm", "E1", 99, 0.5, 1e6+1)})
	for _, tc := range []struct {
		name     string
		rows     []schema.Verdict
		fileRows int
	}{{"together", together, 400}, {"back", back, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			var want []schema.RunCount
			for _, inMemory := range []int{0, 8} {
				l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
				if err != nil {
					t.Fatal(err)
				}
				if _, errs := write(t, l, lake.WriterOptions{BatchRows: 100, FileRows: tc.fileRows, CountsInMemory: inMemory}, tc.rows...); len(errs) > 0 {
					t.Fatal(errs)
				}
				checkCounts(t, l, fmt.Sprintf("CountsInMemory %d", inMemory))
				if n := len(filesOf(t, l, lake.Verdicts)); tc.fileRows > 0 && n < 3 {
					t.Errorf("%d verdicts files, want rolled every %d rows", n, tc.fileRows)
				}
				got := rowsOf[schema.RunCount](t, l, lake.RunCounts)
				for i := range got {
					got[i].SrcFile = "" // names the data file (a new uuid)
				}
				if inMemory == 0 {
					want = got
					continue
				}
				if len(got) != len(want) {
					t.Fatalf("%d run_counts rows, %d without the spill", len(got), len(want))
				}
				for i := range want {
					if fmt.Sprint(deref(got[i])) != fmt.Sprint(deref(want[i])) {
						t.Fatalf("row %d: %v, without the spill %v", i, deref(got[i]), deref(want[i]))
					}
				}
			}
		})
	}
}

// deref shows a run count's scores, run numbers and scored verdicts, not
// their pointers.
func deref(r schema.RunCount) []any {
	s := []any{r.Judge, r.Condition, r.EpisodeID, r.Seq, r.Runs, r.Parse, r.Success, r.Failure, r.Uncertain}
	for _, p := range []*float64{r.Score1, r.Score2, r.Score3} {
		if p != nil {
			s = append(s, *p)
		} else {
			s = append(s, nil)
		}
	}
	for _, p := range []*int64{r.Run1, r.Run2, r.Run3, r.ScoredVerdicts} {
		if p != nil {
			s = append(s, *p)
		} else {
			s = append(s, nil)
		}
	}
	return s
}
