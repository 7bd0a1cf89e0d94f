package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// TestScoresMeanInRunOrder: an episode's reward-model score is the mean of
// its runs' scores summed in run order, whatever order the scan meets them
// in. 0.1, 0.2 and 0.3 sum to different doubles
// forwards and backwards, so a mean taken in scan order would differ.
func TestScoresMeanInRunOrder(t *testing.T) {
	lakeDir := genLake(t, false)
	l, err := lake.OpenExisting(lakeDir, lake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.Query(t.Context(), "SELECT c.episode_id FROM categories c JOIN episodes e USING (episode_id) "+
		"WHERE c.gt_pass IS NOT NULL AND e.source = 'natural' ORDER BY 1 LIMIT 4")
	if err != nil {
		t.Fatal(err)
	}
	var episodes []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		episodes = append(episodes, id)
	}
	rows.Close()
	s.Close()
	if len(episodes) == 0 {
		t.Fatal("no natural episode with ground truth")
	}

	scores := []float64{0.1, 0.2, 0.3}
	forward := ((scores[0] + scores[1]) + scores[2]) / 3
	backward := ((scores[2] + scores[1]) + scores[0]) / 3
	if forward == backward {
		t.Fatal("test data: the two summation orders should give different doubles")
	}
	// Last run first, in one file, so that the scan meets the runs
	// backwards.
	var lines []byte
	for _, ep := range episodes {
		for run := len(scores); run >= 1; run-- {
			lines = fmt.Appendf(lines, `{"episode_id":%q,"judge":"rm:order","condition":"E1-final","run":%d,"verdict":null,"score":%v}`+"\n",
				ep, run, scores[run-1])
		}
	}
	p := filepath.Join(t.TempDir(), "backwards.jsonl")
	if err := os.WriteFile(p, lines, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := trustlakeExit(t, "--lake", lakeDir, "ingest", "verdicts", p); code != 0 {
		t.Fatalf("ingest: exit %d\n%s", code, stderr)
	}

	s, err = queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.MetricsScores(t.Context(), queries.JudgeCondition{Judge: "rm:order", Condition: "E1-final"}, "natural")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(episodes) {
		t.Fatalf("%d scores, want %d", len(got), len(episodes))
	}
	for what, got := range map[string][]queries.MetricScore{"session": got} {
		if len(got) != len(episodes) {
			t.Fatalf("%s: %d scores, want %d", what, len(got), len(episodes))
		}
		for _, m := range got {
			if m.Score != forward || m.Scored != 3 || m.Runs != 3 {
				t.Errorf("%s: %s: score %v (%d of %d runs scored), want %v in run order (scan order would give %v)",
					what, m.EpisodeID, m.Score, m.Scored, m.Runs, forward, backward)
			}
		}
	}
}
