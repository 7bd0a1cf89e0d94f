package main

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// The metrics cells of a session whose run counts are complete are
// computed from the run_counts files read in Go (queries.Session
// MetricsCells): every threshold, reference and key choice must give
// exactly the cells, in the same order, that the statement gives (the SQL
// Spark runs too), on a lake of one ingest (one run-count row per episode)
// and of two (rows summed per episode); compareCellsFromFiles runs on the
// odd lake of TestReportRunsAsSession too.
func TestMetricsCellsFromFiles(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprint("split=", split), func(t *testing.T) {
			l, err := lake.OpenExisting(genLake(t, split), lake.Options{})
			if err != nil {
				t.Fatal(err)
			}
			compareCellsFromFiles(t, l)
		})
	}
}

// compareCellsFromFiles compares MetricsCells of a session with that of
// one that reads the run counts in SQL.
func compareCellsFromFiles(t *testing.T, l *lake.Lake) {
	t.Helper()
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q, err := queries.Open(t.Context(), l, queries.Options{CountsInSQL: true})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	cells := 0
	for _, thr := range []*float64{nil, ptr(0), ptr(0.5), ptr(1)} {
		for _, gt := range []string{queries.GTVerifier, queries.GTHuman, queries.GTAny} {
			for _, by := range [][2]bool{{false, false}, {false, true}, {true, true}} {
				o := queries.MetricCellOptions{ByAgent: by[0], ByCategory: by[1], Threshold: thr, GT: gt}
				got, err := s.MetricsCells(t.Context(), o)
				if err != nil {
					t.Fatal(err)
				}
				want, err := q.MetricsCells(t.Context(), o)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("cells %+v: from the files (go) and the statement (sql) differ:\n%s", o, firstDiff(got, want))
				}
				cells += len(want)
			}
		}
	}
	if cells == 0 {
		t.Error("no cells: the test compares nothing")
	}
}
