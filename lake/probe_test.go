package lake_test

import (
	"errors"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestProbeThenAdd: rows prepared by Probe get the same outcomes as rows
// added without it, a conflict names the right row of the right file of
// a partition holding two, and an Add of a row Probe did not see (out of
// order) still finds the stored keys.
func TestProbeThenAdd(t *testing.T) {
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	a := verdict("ep1", "j", "E1-final", 1, "success", 1)
	b := verdict("ep2", "j", "E1-final", 1, "failure", 2)
	if _, errs := write(t, l, lake.WriterOptions{}, a); len(errs) > 0 {
		t.Fatal(errs)
	}
	b.SrcFile = "w.jsonl"
	if _, errs := write(t, l, lake.WriterOptions{}, b); len(errs) > 0 {
		t.Fatal(errs)
	}
	tx, err := l.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	changedB := verdict("ep2", "j", "E1-final", 1, "success", 7)
	rows := []schema.Verdict{a, verdict("ep3", "j", "E1-final", 1, "success", 3), changedB, verdict("ep4", "j", "E2-lastk", 1, "success", 4)}
	w.Probe(rows)
	want := []lake.Outcome{lake.Unchanged, lake.Added, lake.Conflict, lake.Added}
	for i := range rows {
		if i == 3 { // a row Probe did not see comes first
			other := a
			if got, _ := w.Add(&other); got != lake.Unchanged {
				t.Errorf("unprobed stored row: %v, want Unchanged", got)
			}
		}
		got, err := w.Add(&rows[i])
		if got != want[i] {
			t.Errorf("row %d: %v (%v), want %v", i, got, err, want[i])
		}
		var ce *lake.ConflictError
		if want[i] == lake.Conflict && (!errors.As(err, &ce) || ce.Existing != "w.jsonl:2") {
			t.Errorf("row %d: %v, want a conflict with w.jsonl:2", i, err)
		}
	}
}
