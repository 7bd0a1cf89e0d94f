package ingest

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestResultsRecordsCrossChecks checks that the records of one `ingest sql`
// query are checked against each other like the lines of one results file.
func TestResultsRecordsCrossChecks(t *testing.T) {
	recs := []map[string]any{
		{"benchmark": "b", "task_id": "t1", "agent": "a", "trial": int64(0), "score": 1.0, "instruction": "do x"},
		{"benchmark": "b", "task_id": "t1", "agent": "a", "trial": int64(1), "score": 0.0, "instruction": "do y"},
		{"benchmark": "b", "task_id": "t1", "agent": "a", "trial": int64(0), "score": 0.0, "instruction": "do x"},
		{"benchmark": "b", "task_id": "t2", "agent": "a", "trial": int64(0), "score": 0.5},
	}
	i := 0
	next := func() (map[string]any, bool, error) {
		if i == len(recs) {
			return nil, false, nil
		}
		i++
		return recs[i-1], true, nil
	}
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Records(t.Context(), l, lake.Results, "query", next, Options{})
	var rej *Rejected
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v, want *Rejected", err)
	}
	cases := []struct {
		prefix   string
		sentinel error
	}{
		{"query:2: instruction: invalid value: task t1 has a different instruction at line 1", schema.ErrValue},
		{"query:3: result_id: duplicate", schema.ErrDuplicate},
	}
	if len(rej.Errors) != len(cases) {
		t.Fatalf("errors:\n%v\nwant %d", rej.Errors, len(cases))
	}
	for i, c := range cases {
		if got := rej.Errors[i].Error(); !strings.HasPrefix(got, c.prefix) || !errors.Is(rej.Errors[i], c.sentinel) {
			t.Errorf("error %d = %q, want prefix %q", i, got, c.prefix)
		}
	}
}
