package runcounts_test

import (
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// oldLake is a lake written before the key index and run_counts (lake's
// test fixture).
const oldLake = "../testdata/oldlake"

func strp(s string) *string { return &s }

func verdict(ep, judge, cond string, run int64, v string, line int64) schema.Verdict {
	return schema.Verdict{EpisodeID: ep, Judge: judge, Condition: cond, Run: run, Verdict: strp(v), Extra: "{}",
		Provenance: schema.Provenance{SrcFile: "v.jsonl", SrcLine: line}}
}

// write writes rows of verdicts in one transaction, committed when no row
// failed; it returns the writer's stats and the rows' errors.
func write(t *testing.T, l *lake.Lake, opts lake.WriterOptions, rows ...schema.Verdict) (lake.Stats, []error) {
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

func rowsOf[T any](t *testing.T, l *lake.Lake, table string) []T {
	t.Helper()
	var out []T
	if err := lake.ReadTable[T](l, table, func(rows []T) error { out = append(out, rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}
