package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// writeTau writes a τ-bench file of the given records into dir.
func writeTau(t *testing.T, dir, name string, recs ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("[\n"+strings.Join(recs, ",\n")+"\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tableRows[T any](t *testing.T, l *lake.Lake, table string) []T {
	t.Helper()
	var out []T
	if err := lake.ReadTable[T](l, table, func(rows []T) error {
		out = append(out, rows...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTauBenchIngest(t *testing.T) {
	dir := t.TempDir()
	var recs []string
	for trial := range 3 {
		for task := range 2 {
			recs = append(recs, tauRec(task, trial, "1.0", "cancel", goodTraj))
		}
	}
	file := writeTau(t, dir, "m-airline.json", recs...)
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	st, err := TauBench(t.Context(), l, []string{file}, TauBenchOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Tables[lake.Results].Added, int64(6); got != want {
		t.Errorf("results added = %d, want %d", got, want)
	}
	if got, want := st.Tables[lake.Actions].Added, int64(30); got != want {
		t.Errorf("actions added = %d, want %d", got, want)
	}
	st, err = TauBench(t.Context(), l, []string{file}, TauBenchOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Tables[lake.Results]; got.Added != 0 || got.Unchanged != 6 {
		t.Errorf("re-ingest results = %+v, want 0 added, 6 unchanged", got)
	}
	res := tableRows[schema.Result](t, l, lake.Results)
	if len(res) != 6 {
		t.Fatalf("results in lake = %d, want 6", len(res))
	}
	if got, want := res[0].Benchmark, "tau-bench-airline"; got != want {
		t.Errorf("benchmark = %q, want %q", got, want)
	}
	acts := tableRows[schema.Action](t, l, lake.Actions)
	if got, want := acts[0].Agent, "m"; got != want {
		t.Errorf("action agent = %q, want %q", got, want)
	}
}

// TestTauBenchIngestBad checks that every bad record is reported, that the
// default batch commits nothing, and that SkipBad commits the good records.
func TestTauBenchIngestBad(t *testing.T) {
	dir := t.TempDir()
	file := writeTau(t, dir, "m-airline.json",
		tauRec(1, 0, "1.0", "cancel", goodTraj),
		tauRec(1, 1, "0.0", "another instruction", goodTraj),
		tauRec(2, 0, "3", "x", goodTraj),
		tauRec(2, 1, "0", "x", goodTraj),
	)
	other := writeTau(t, dir, "n-airline.json", tauRec(1, 0, "1.0", "cancel, but differently", goodTraj))
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = TauBench(t.Context(), l, []string{file, other}, TauBenchOptions{}, Options{})
	var rej *Rejected
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *Rejected", err)
	}
	want := []string{
		"m-airline.json:9: info.task:",
		"m-airline.json:16: reward:",
		"n-airline.json:2: info.task: invalid value: task 1 of tau-bench-airline differs from the task recorded for it at " + file + ":2",
	}
	if len(rej.Errors) != len(want) {
		t.Fatalf("errors:\n%v\nwant %d", rej.Errors, len(want))
	}
	for i, w := range want {
		if got := rej.Errors[i].Error(); !strings.Contains(got, w) {
			t.Errorf("error %d = %q, want it to contain %q", i, got, w)
		}
	}
	if m, _ := l.Manifest(); len(m.Files) != 0 {
		t.Errorf("rejected batch committed %d files", len(m.Files))
	}

	st, err := TauBench(t.Context(), l, []string{file, other}, TauBenchOptions{SkipBad: true}, Options{})
	var sk *Skipped
	if !errors.As(err, &sk) || len(sk.Errors) != 3 {
		t.Fatalf("SkipBad: err = %v, want *Skipped with 3 errors", err)
	}
	if got, want := st.Tables[lake.Results].Added, int64(2); got != want {
		t.Errorf("SkipBad: results added = %d, want %d", got, want)
	}
	if got := len(tableRows[schema.Result](t, l, lake.Results)); got != 2 {
		t.Errorf("SkipBad: results in lake = %d, want 2", got)
	}
}

func TestTauBenchIngestConflict(t *testing.T) {
	dir := t.TempDir()
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	a := writeTau(t, dir, "m-airline.json", tauRec(1, 0, "1.0", "cancel", goodTraj))
	if _, err := TauBench(t.Context(), l, []string{a}, TauBenchOptions{}, Options{}); err != nil {
		t.Fatal(err)
	}
	b := writeTau(t, filepath.Join(dir), "m2-airline.json", tauRec(1, 0, "0.0", "cancel", goodTraj))
	_, err = TauBench(t.Context(), l, []string{b}, TauBenchOptions{Agent: "m", SkipBad: true}, Options{})
	var rej *Rejected
	if !errors.As(err, &rej) || !errors.Is(err, schema.ErrConflict) {
		t.Fatalf("err = %v, want *Rejected conflict even with SkipBad", err)
	}
	st, err := TauBench(t.Context(), l, []string{b}, TauBenchOptions{Agent: "m"}, Options{Replace: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Tables[lake.Results].Replaced; got != 1 {
		t.Errorf("replaced = %d, want 1", got)
	}
}
