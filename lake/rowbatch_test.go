package lake_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestWriterOwnsOptionalValues: a decoder may reuse the memory its rows'
// optional fields point to once Add returns (ingest's slabs of scores and
// times). The Writer keeps copies, so what is stored is what was added,
// even when every row pointed into one buffer overwritten after each Add.
func TestWriterOwnsOptionalValues(t *testing.T) {
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := l.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{BatchRows: 7})
	if err != nil {
		t.Fatal(err)
	}
	var (
		verdict, model string
		score          float64
		tokens         int64
		at             time.Time
	)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := map[string]string{}
	for i := range 50 {
		row := schema.Verdict{EpisodeID: fmt.Sprintf("ep-%02d", i), Judge: "j", Condition: "c", Run: 1, Extra: "{}",
			Verdict: &verdict, Model: &model, Score: &score, InputTokens: &tokens, CalledAt: &at,
			Provenance: schema.Provenance{SrcFile: "v.jsonl", SrcLine: int64(i + 1)}}
		verdict, model, score, tokens, at = []string{"success", "failure"}[i%2], fmt.Sprint("m", i), float64(i)/4, int64(i*10), t0.Add(time.Duration(i)*time.Minute)
		want[row.EpisodeID] = fmt.Sprint(verdict, model, score, tokens, at)
		if _, err := w.Add(&row); err != nil {
			t.Fatal(err)
		}
		verdict, model, score, tokens, at = "overwritten", "overwritten", -1, -1, time.Time{}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	err = lake.ReadTable[schema.Verdict](l, lake.Verdicts, func(rows []schema.Verdict) error {
		for _, r := range rows {
			got[r.EpisodeID] = fmt.Sprint(*r.Verdict, *r.Model, *r.Score, *r.InputTokens, r.CalledAt.UTC())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stored rows differ from the rows added (-added +stored):\n%s", d)
	}
}
