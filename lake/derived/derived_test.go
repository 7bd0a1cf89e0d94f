package derived_test

import (
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/derived"
	"github.com/trustlake/trustlake/schema"
)

// TestWrite: audit rows replace, unchanged rows are no-ops, rows of
// other keys stay.
func TestWrite(t *testing.T) {
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := []schema.Trust{
		{ResultID: "b/a/1/0", Benchmark: "b", TaskID: "1", Agent: "a", D1Outcome: schema.D1Confirm, Reasons: "{}"},
		{ResultID: "b/a/1/1", Benchmark: "b", TaskID: "1", Agent: "a", Trial: 1, D1Outcome: schema.D1Confirm, Reasons: "{}"},
		{ResultID: "c/a/1/0", Benchmark: "c", TaskID: "1", Agent: "a", D1Outcome: schema.D1Unverified, Reasons: "{}"},
	}
	cases := []struct {
		name                      string
		change                    func([]schema.Trust) []schema.Trust
		added, unchanged, replace int64
	}{
		{"first audit", func(r []schema.Trust) []schema.Trust { return r }, 3, 0, 0},
		{"same audit is a no-op", func(r []schema.Trust) []schema.Trust { return r }, 0, 3, 0},
		{"changed audit replaces", func(r []schema.Trust) []schema.Trust {
			out := append([]schema.Trust{}, r...)
			out[1].Trusted = true
			return out
		}, 0, 2, 1},
		{"one benchmark only keeps the other", func(r []schema.Trust) []schema.Trust { return r[2:] }, 0, 1, 0},
	}
	for _, c := range cases {
		got, err := derived.Write(t.Context(), l, lake.Trust, c.change(rows))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Added != c.added || got.Unchanged != c.unchanged || got.Replaced != c.replace {
			t.Errorf("%s: stats %+v, want added %d unchanged %d replaced %d", c.name, got, c.added, c.unchanged, c.replace)
		}
	}
	var stored []schema.Trust
	if err := lake.ReadTable[schema.Trust](l, lake.Trust, func(rows []schema.Trust) error { stored = append(stored, rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 3 {
		t.Fatalf("trust rows = %d, want 3", len(stored))
	}
	trusted := 0
	for _, r := range stored {
		if r.Trusted {
			trusted++
			if r.ResultID != "b/a/1/1" || r.Benchmark != "b" {
				t.Errorf("replaced row = %+v", r)
			}
		}
	}
	if trusted != 1 {
		t.Errorf("trusted rows = %d, want 1 (the replacement)", trusted)
	}
}
