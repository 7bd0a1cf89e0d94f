package lake_test

import (
	"errors"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// TestNoCompanionRefusesVerdicts: a lake opened without the run_counts
// companion refuses to write or compact verdicts (their run_counts would
// be missing) and still writes other tables.
func TestNoCompanionRefusesVerdicts(t *testing.T) {
	l, err := lake.Open(t.TempDir(), lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := l.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{}); !errors.Is(err, lake.ErrNoCompanion) {
		t.Errorf("verdicts writer: %v, want ErrNoCompanion", err)
	}
	w, err := lake.NewWriter[schema.Label](tx, lake.Labels, lake.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(&schema.Label{EpisodeID: "ep1", CategoryRaw: "c"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := lake.Compact(t.Context(), l, lake.Verdicts); !errors.Is(err, lake.ErrNoCompanion) {
		t.Errorf("compact verdicts: %v, want ErrNoCompanion", err)
	}
}
