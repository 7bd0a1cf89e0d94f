package lake_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

func rowsOf[T any](t *testing.T, l *lake.Lake, table string) []T {
	t.Helper()
	var out []T
	if err := lake.ReadTable[T](l, table, func(rows []T) error { out = append(out, rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOldLayoutLake reads and upgrades a lake written before the key index
// (testdata/oldlake): nothing is lost, lake check is clean apart from
// no_keys notes, a re-ingest of the same rows is a no-op, a changed row is
// a conflict naming the stored row's source, and the first write to a
// partition gives its old files an index that lake check then verifies.
func TestOldLayoutLake(t *testing.T) {
	l, err := lake.Open(lakecopy.Copy(t, "testdata/oldlake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := l.Check(t.Context())
	if err != nil || rep.Damaged() {
		t.Fatalf("check of the old lake: %+v %v", rep, err)
	}
	noKeys := 0
	for _, p := range rep.Problems {
		if p.Kind == "no_keys" {
			noKeys++
		}
	}
	if noKeys != rep.Files {
		t.Errorf("%d no_keys notes for %d files: %+v", noKeys, rep.Files, rep.Problems)
	}
	first, second := oldLayoutVerdicts()
	all := append(slices.Clone(first), second...)
	got := rowsOf[schema.Verdict](t, l, lake.Verdicts)
	if len(got) != len(all) {
		t.Fatalf("%d verdicts, want %d", len(got), len(all))
	}
	byKey := map[string]schema.Verdict{}
	for _, v := range got {
		byKey[vkey(v)] = v
	}
	for _, v := range all {
		g, ok := byKey[vkey(v)]
		if !ok || g.SrcFile != v.SrcFile || g.SrcLine != v.SrcLine || (g.Verdict == nil) != (v.Verdict == nil) || !g.CalledAt.Equal(*v.CalledAt) {
			t.Errorf("%s: read %+v, wrote %+v", vkey(v), g, v)
		}
	}
	labels := rowsOf[schema.Label](t, l, lake.Labels)
	if len(labels) != 4 {
		t.Fatalf("labels: %d", len(labels))
	}
	for _, lb := range labels {
		if lb.EpisodeID == "ep_000" && *lb.Category != "F-ABORT" {
			t.Errorf("replaced label lost: %+v", lb)
		}
	}
	// Re-ingest of identical rows: unchanged, and the touched partitions'
	// old files get a key index in the same commit.
	st, errs := write(t, l, lake.WriterOptions{}, all...)
	if len(errs) > 0 || st.Unchanged != int64(len(all)) || st.Added != 0 {
		t.Fatalf("re-ingest into the old lake: %+v %v", st, errs)
	}
	// A changed row conflicts, naming where the stored one came from.
	changed := first[3]
	s := "uncertain"
	changed.Verdict, changed.Score, changed.SrcFile = &s, nil, "new.jsonl"
	_, errs = write(t, l, lake.WriterOptions{}, changed)
	var ce *lake.ConflictError
	if len(errs) != 1 || !errors.As(errs[0], &ce) || ce.Existing != "old.jsonl:4" {
		t.Fatalf("conflict: %v", errs)
	}
	rep, _ = l.Check(t.Context())
	if rep.Damaged() {
		t.Fatalf("after upgrade: %+v", rep.Problems)
	}
	for _, p := range rep.Problems {
		if p.Kind == "no_keys" && filepath.Dir(filepath.Dir(p.Path)) == "verdicts" {
			t.Errorf("verdict file still without index after a write: %+v", p)
		}
	}
	if got := rowsOf[schema.Verdict](t, l, lake.Verdicts); len(got) != len(all) {
		t.Fatalf("after upgrade: %d verdicts, want %d", len(got), len(all))
	}
	// Compaction rewrites with an index; the lake is then fully upgraded
	// for that table.
	if _, err := lake.Compact(t.Context(), l, lake.Labels); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf[schema.Label](t, l, lake.Labels); len(got) != 4 {
		t.Fatalf("labels after compact: %d", len(got))
	}
}
