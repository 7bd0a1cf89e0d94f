package nightly

import (
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/sim"
)

// genLake generates a simulated night in process (as trustlake gen with
// opts, minimal episode files) and ingests it into a new lake.
func genLake(t testing.TB, opts sim.Options) *lake.Lake {
	t.Helper()
	dir := t.TempDir()
	data, root := filepath.Join(dir, "data"), filepath.Join(dir, "lake")
	opts.Episodes = sim.EpisodeMinimal
	if _, err := sim.Generate(t.Context(), data, opts); err != nil {
		t.Fatal(err)
	}
	dst, err := lake.Open(root, runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Episodes(t.Context(), dst, []string{filepath.Join(data, "episodes")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	verdicts, err := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	if err != nil || len(verdicts) == 0 {
		t.Fatalf("no verdict files: %v", err)
	}
	if _, err := ingest.Verdicts(t.Context(), dst, verdicts, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	src, err := lake.OpenExisting(root, lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// openSession opens a session over l, closed when the test ends.
func openSession(t testing.TB, l *lake.Lake) *queries.Session {
	t.Helper()
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ptr(f float64) *float64 { return &f }
