package queries_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
)

// tauFile writes a τ-bench file of tasks × trials records whose
// trajectories have steps messages (user, then assistant replies).
func tauFile(t *testing.T, dir string, tasks, trials, steps int) string {
	t.Helper()
	var recs []string
	for trial := range trials {
		for task := range tasks {
			traj := []string{`{"role": "user", "content": "hi"}`}
			for s := 1; s < steps; s++ {
				traj = append(traj, `{"role": "assistant", "content": "step `+strconv.Itoa(s)+`"}`)
			}
			recs = append(recs, `{"task_id": `+strconv.Itoa(task)+`, "trial": `+strconv.Itoa(trial)+`, "reward": 1,
 "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}}, "traj": [`+strings.Join(traj, ", ")+`]}`)
		}
	}
	p := filepath.Join(dir, "q-airline.json")
	if err := os.WriteFile(p, []byte("["+strings.Join(recs, ",\n")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrustQueries checks the scope, the results and the bucketed
// trajectories: every episode exactly once, in episode order, its steps in
// order, whatever the bucket size.
func TestTrustQueries(t *testing.T) {
	dir := t.TempDir()
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.TauBench(t.Context(), l, []string{tauFile(t, dir, 4, 3, 5)}, ingest.TauBenchOptions{}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bs, err := s.TrustBenchmarks(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]queries.BenchmarkCount{{Benchmark: "tau-bench-airline", Results: 12}}, bs); diff != "" {
		t.Errorf("benchmarks (-want +got):\n%s", diff)
	}
	if err := s.TrustScope(t.Context(), []string{"tau-bench-airline"}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	err = s.TrustResults(t.Context(), func(r schema.Result) error {
		if r.FinalMessage == nil || *r.FinalMessage != "step 4" || r.Instruction == nil || r.SrcLine == 0 {
			t.Errorf("result %s: final %v, instruction %v, line %d", r.ResultID, r.FinalMessage, r.Instruction, r.SrcLine)
		}
		ids = append(ids, r.ResultID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 12 || ids[0] != "tau-bench-airline/q/0/0" {
		t.Fatalf("results %v", ids)
	}
	for _, per := range []int{0, 1, 7, 1000} {
		var eps []string
		err := s.TrustActions(t.Context(), per, func(ep string, acts []schema.Action) error {
			eps = append(eps, ep)
			if len(acts) != 5 {
				t.Errorf("per %d: %s has %d actions, want 5", per, ep, len(acts))
			}
			for i, a := range acts {
				if a.Step != int64(i) || a.EpisodeID != ep {
					t.Errorf("per %d: %s action %d = step %d of %s", per, ep, i, a.Step, a.EpisodeID)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ids, eps); diff != "" {
			t.Errorf("per %d: episodes (-results +actions):\n%s", per, diff)
		}
	}
	gts, err := s.TrustGroundTruth(t.Context())
	if err != nil || len(gts) != 0 {
		t.Errorf("ground truth = %v, %v; want none", gts, err)
	}
}
