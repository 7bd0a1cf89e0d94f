package queries_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
)

// TestSessionReadsOneSnapshot commits to the lake between the creation of
// two views of one session (episodes is created before verdicts): every
// view must still show the version the session started from, and a new
// session sees the commit.
func TestSessionReadsOneSnapshot(t *testing.T) {
	dir := t.TempDir()
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	verdicts := func(name, ep string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(fmt.Sprintf(`{"episode_id":%q,"judge":"j","condition":"E1-final","run":1,"verdict":"success"}`+"\n", ep)), 0o644)
		return p
	}
	if _, err := ingest.Verdicts(t.Context(), l, []string{verdicts("a.jsonl", "e1")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	m0, _ := l.Manifest()
	committed := false
	hook := func(table string) {
		if table != lake.Episodes || committed {
			return
		}
		committed = true
		// A second verdict file and a second partition land mid-open.
		if _, err := ingest.Verdicts(t.Context(), l, []string{verdicts("b.jsonl", "e2")}, ingest.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := queries.OpenWithViewHook(t.Context(), l, queries.Options{}, hook)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !committed {
		t.Fatal("the hook never ran")
	}
	m1, _ := l.Manifest()
	if m1.Version != m0.Version+1 {
		t.Fatalf("manifest %d → %d, want one commit during the open", m0.Version, m1.Version)
	}
	if got := s.Version(); got != m0.Version {
		t.Errorf("session version %d, want %d (the version when it opened)", got, m0.Version)
	}
	count := func(s *queries.Session) int {
		var n int
		rows, err := s.Query(t.Context(), "SELECT count(*) FROM verdicts")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		rows.Next()
		rows.Scan(&n)
		return n
	}
	if got := count(s); got != 1 {
		t.Errorf("session opened at version %d sees %d verdicts, want 1: views mix versions", m0.Version, got)
	}
	// The metrics' row counts come from the same snapshot's manifest.
	if c, err := s.MetricsLakeCounts(t.Context()); err != nil || c != (queries.LakeCounts{Verdicts: 1}) {
		t.Errorf("MetricsLakeCounts = %+v, %v; want 1 verdict, as the session's views", c, err)
	}
	s2, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := count(s2); got != 2 || s2.Version() != m1.Version {
		t.Errorf("new session: %d verdicts at version %d, want 2 at %d", got, s2.Version(), m1.Version)
	}
	if c, err := s2.MetricsLakeCounts(t.Context()); err != nil || c != (queries.LakeCounts{Verdicts: 2}) {
		t.Errorf("new session: MetricsLakeCounts = %+v, %v; want 2 verdicts", c, err)
	}
}
