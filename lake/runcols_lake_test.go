package lake_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// TestRunCountColumnsOfOwnFiles: the run_counts files this lake's writer
// makes (several pages and row groups of them) are in the layout
// ReadRunCountColumns covers, and it reads every row as the generic reader
// does. Without this the metrics and the report would fall back to SQL
// (same figures, slower) the day the writer's layout moved.
func TestRunCountColumnsOfOwnFiles(t *testing.T) {
	l, _ := lake.Open(t.TempDir(), lake.Options{})
	var rows []schema.Verdict
	vals := []string{"success", "failure", "uncertain", "parse_error"}
	for e := range 9000 {
		ep := fmt.Sprintf("episode-%05d", e)
		for r := int64(1); r <= 2; r++ {
			rows = append(rows, verdict(ep, "vlm", "E1", r, vals[(e+int(r))%4], int64(len(rows)+1)))
		}
		if e%3 == 0 {
			rows = append(rows, scored(ep, "rm", "E1", 1, float64(e)/9000, int64(len(rows)+1)))
		}
	}
	if _, errs := write(t, l, lake.WriterOptions{}, rows...); len(errs) > 0 {
		t.Fatal(errs)
	}
	var want, got []string
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		s := ""
		if c.Score1 != nil {
			s = fmt.Sprint(*c.Score1, *c.Run1)
		}
		want = append(want, fmt.Sprint(c.EpisodeID, c.Runs, c.Parse, c.Success, c.Failure, c.Uncertain, s))
	}
	files := filesOf(t, l, lake.RunCounts)
	if len(files) != 2 {
		t.Fatalf("%d run_counts files, want 2 (one per judge)", len(files))
	}
	for _, f := range files {
		c, err := lake.ReadRunCountColumns(f, true, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i := range c.Rows() {
			s := ""
			if v, ok := c.Score(0, i); ok {
				run, _ := c.RunNo(0, i)
				s = fmt.Sprint(v, run)
			}
			got = append(got, fmt.Sprint(string(c.ID(i)), c.Runs[i], c.Parse[i], c.Success[i], c.Failure[i], c.Uncer[i], s))
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if len(want) < 12000 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ReadRunCountColumns read %d rows, the generic reader %d (or they differ)", len(got), len(want))
	}
}
