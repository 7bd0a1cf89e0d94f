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
	c, err := ReadRunCountColumns(name, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows() != len(rows) {
		t.Fatalf("%d rows, want %d", c.Rows(), len(rows))
	}
	for i, r := range rows {
		got := []any{string(c.ID(i)), int64(c.Runs[i]), int64(c.Parse[i]), int64(c.Success[i]), int64(c.Failure[i]), int64(c.Uncer[i])}
		want := []any{r.EpisodeID, r.Runs, r.Parse, r.Success, r.Failure, r.Uncertain}
		for k, p := range []*int64{r.Run1, r.Run2, r.Run3, r.ScoredVerdicts} {
			v, valid := c.ScoredVerdicts(i)
			if k < 3 {
				v, valid = c.RunNo(k, i)
			}
			got, want = append(got, valid), append(want, p != nil)
			if p != nil {
				got, want = append(got, v), append(want, *p)
			}
		}
		for k, p := range []*float64{r.Score1, r.Score2, r.Score3} {
			v, valid := c.Score(k, i)
			got, want = append(got, valid), append(want, p != nil)
			if p != nil {
				got, want = append(got, v), append(want, *p)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("row %d: %v, want %v", i, got, want)
		}
	}
	// The same ids again: shared with the first read, not copied; another
	// file's ids are its own.
	again, err := ReadRunCountColumns(name, false, c)
	if err != nil {
		t.Fatal(err)
	}
	if &again.IDs[0] != &c.IDs[0] || !reflect.DeepEqual(again.IDOffsets, c.IDOffsets) {
		t.Error("the same ids read again: not shared")
	}
	rows[len(rows)-1].EpisodeID = "last"
	changed := filepath.Join(dir, "changed.parquet")
	if err := parquet.WriteFile(changed, rows, parquet.PageBufferSize(4096)); err != nil {
		t.Fatal(err)
	}
	if again, err = ReadRunCountColumns(changed, false, c); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if string(again.ID(i)) != rows[i].EpisodeID {
			t.Fatalf("ids after a change: row %d %q, want %q", i, again.ID(i), rows[i].EpisodeID)
		}
	}
	if string(c.ID(len(rows)-1)) == "last" {
		t.Error("like's ids changed")
	}
	// A file written before the run numbers: they read as NULL.
	type before struct {
		EpisodeID string   `parquet:"episode_id"`
		Runs      int64    `parquet:"n_runs"`
		Parse     int64    `parquet:"n_parse"`
		Success   int64    `parquet:"n_success"`
		Failure   int64    `parquet:"n_failure"`
		Uncertain int64    `parquet:"n_uncertain"`
		Score1    *float64 `parquet:"score_1,optional"`
		Score2    *float64 `parquet:"score_2,optional"`
		Score3    *float64 `parquet:"score_3,optional"`
	}
	old := filepath.Join(dir, "before.parquet")
	if err := parquet.WriteFile(old, []before{{"e", 2, 0, 1, 0, 0, f(0.5), f(0.25), nil}}); err != nil {
		t.Fatal(err)
	}
	if c, err = ReadRunCountColumns(old, true, nil); err != nil {
		t.Fatal(err)
	}
	s1, ok1 := c.Score(0, 0)
	_, ok3 := c.Score(2, 0)
	_, okRun := c.RunNo(0, 0)
	_, okSV := c.ScoredVerdicts(0)
	if string(c.ID(0)) != "e" || c.Runs[0] != 2 || c.Success[0] != 1 || s1 != 0.5 || !ok1 || ok3 || okRun || okSV {
		t.Errorf("file before run numbers: %+v", c)
	}
	type other struct {
		EpisodeID string `parquet:"episode_id"`
		Runs      int32  `parquet:"n_runs"`
	}
	bad := filepath.Join(dir, "other.parquet")
	if err := parquet.WriteFile(bad, []other{{"e", 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRunCountColumns(bad, true, nil); !errors.Is(err, ErrColumnLayout) {
		t.Errorf("n_runs INT32: %v, want ErrColumnLayout", err)
	}
}
