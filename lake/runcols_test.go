package lake

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/schema"
)

// TestReadRunCountColumns: the columns of a run_counts file as the
// metrics and the report read them (NULLs marked), across several pages; a
// file whose columns have another type fails with ErrColumnLayout.
func TestReadRunCountColumns(t *testing.T) {
	dir := t.TempDir()
	f := func(x float64) *float64 { return &x }
	var rows []schema.RunCount
	for i := range 5000 {
		r := schema.RunCount{EpisodeID: string(rune('a'+i%26)) + "-" + string(rune('a'+i/26%26)), Runs: int64(i % 7), Parse: int64(i % 2),
			Success: int64(i % 3), Failure: int64(i % 5), Uncertain: int64(i % 4)}
		if i%3 == 0 {
			r.Score1 = f(float64(i) / 5000)
		}
		if i%5 == 0 {
			r.Score3 = f(-float64(i))
			run := int64(i)
			r.Run3 = &run
		}
		if i%2 == 0 {
			sv := int64(i % 3)
			r.ScoredVerdicts = &sv
		}
		rows = append(rows, r)
	}
	name := filepath.Join(dir, "counts.parquet")
	if err := parquet.WriteFile(name, rows, parquet.PageBufferSize(4096)); err != nil {
		t.Fatal(err)
	}
	c, err := ReadRunCountColumns(name, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows() != len(rows) {
		t.Fatalf("%d rows, want %d", c.Rows(), len(rows))
	}
	for i, r := range rows {
		got := []any{string(c.ID(i)), c.Runs[i], c.Parse[i], c.Success[i], c.Failure[i], c.Uncer[i]}
		want := []any{r.EpisodeID, r.Runs, r.Parse, r.Success, r.Failure, r.Uncertain}
		for k, p := range []*int64{r.Run1, r.Run2, r.Run3, r.ScoredVerdicts} {
			valid, v := c.ScoredVerdictsValid, c.ScoredVerdicts
			if k < 3 {
				valid, v = c.RunNoValid[k], c.RunNo[k]
			}
			got, want = append(got, valid[i]), append(want, p != nil)
			if p != nil {
				got, want = append(got, v[i]), append(want, *p)
			}
		}
		for k, p := range []*float64{r.Score1, r.Score2, r.Score3} {
			got = append(got, c.HasScore[k][i])
			want = append(want, p != nil)
			if p != nil {
				got, want = append(got, c.Scores[k][i]), append(want, *p)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("row %d: %v, want %v", i, got, want)
		}
	}
	if !c.HasRunNo[0] || !c.HasScoredVerdicts {
		t.Error("run numbers or scored verdicts not read")
	}
	type other struct {
		EpisodeID string `parquet:"episode_id"`
		Runs      int32  `parquet:"n_runs"`
	}
	bad := filepath.Join(dir, "other.parquet")
	if err := parquet.WriteFile(bad, []other{{"e", 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunCountColumns(bad, true); !errors.Is(err, ErrColumnLayout) {
		t.Errorf("n_runs INT32: %v, want ErrColumnLayout", err)
	}
}
