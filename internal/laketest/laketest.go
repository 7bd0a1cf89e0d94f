// Package laketest holds the helpers that tests of lake and of its
// companion packages share: a verdict row and a one-transaction write.
package laketest

import (
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Verdict is a verdicts row of episode ep, read from line of v.jsonl.
func Verdict(ep, judge, cond string, run int64, v string, line int64) schema.Verdict {
	return schema.Verdict{EpisodeID: ep, Judge: judge, Condition: cond, Run: run, Verdict: &v, Extra: "{}",
		Provenance: schema.Provenance{SrcFile: "v.jsonl", SrcLine: line}}
}

// Write writes rows of verdicts in one transaction, committed when no row
// failed; it returns the writer's stats and the rows' errors.
func Write(t *testing.T, l *lake.Lake, opts lake.WriterOptions, rows ...schema.Verdict) (lake.Stats, []error) {
	t.Helper()
	tx, err := l.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, opts)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for i := range rows {
		if _, err := w.Add(&rows[i]); err != nil {
			errs = append(errs, err)
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range w.Duplicates() {
		errs = append(errs, d)
	}
	if len(errs) == 0 {
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return st, errs
}
