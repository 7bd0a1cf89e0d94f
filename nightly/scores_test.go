package nightly

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/sim"
)

// The report engine reads every reward model's scores from the run counts
// in one statement; each judge × condition must get what the session's
// statement over the verdicts gives: the same episodes and the same bits
// of each mean, summed in run order, with the runs written out of order
// and scores whose sum depends on it, and the verdicts again for a judge ×
// condition with a run that has both a verdict and a score.
func TestReportEngineScores(t *testing.T) {
	dir := t.TempDir()
	data, root := filepath.Join(dir, "data"), filepath.Join(dir, "lake")
	if _, err := sim.Generate(t.Context(), data, sim.Options{Tasks: 12, EpisodesPerTask: 3, Episodes: sim.EpisodeMinimal}); err != nil {
		t.Fatal(err)
	}
	verdicts := filepath.Join(dir, "verdicts.jsonl")
	if err := shuffleScores(filepath.Join(data, "verdicts"), verdicts); err != nil {
		t.Fatal(err)
	}
	dst, err := lake.Open(root, runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Episodes(t.Context(), dst, []string{filepath.Join(data, "episodes")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Verdicts(t.Context(), dst, []string{verdicts}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Open(t.Context(), dst, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var unordered int
	rows, err := s.Query(t.Context(), "SELECT count(*) FROM run_counts WHERE run_2 < run_1 OR run_3 < run_2 OR run_3 < run_1")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		if err := rows.Scan(&unordered); err != nil {
			t.Fatal(err)
		}
	}
	rows.Close()
	if unordered == 0 {
		t.Fatal("the run counts keep every episode's scores in run order: the test needs some out of it")
	}
	jcs, err := s.MetricsJudgeConditions(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(s, nil)
	counted := 0
	for _, jc := range jcs {
		want, err := s.MetricsScores(t.Context(), jc.JudgeCondition, "natural")
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.MetricsScores(t.Context(), jc.JudgeCondition, "natural")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: engine %d scores, session %d; first differences: %v", jc.JudgeCondition, len(got), len(want), firstDiff(got, want))
		}
		if len(e.scores[jc.JudgeCondition]) > 0 {
			counted++
		}
	}
	if !e.scoresOK || counted == 0 || len(e.scoresRedo) != 1 {
		t.Errorf("want the run counts read (%v) for some judge × conditions (%d) and one redone from the verdicts: %v", e.scoresOK, counted, e.scoresRedo)
	}
}

// shuffleScores writes the verdicts of the JSONL files under dir into out
// in a shuffled order, every score-only run given a score of full
// precision, and the first score-only run a verdict as well.
func shuffleScores(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	var rows []map[string]any
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				f.Close()
				return err
			}
			rows = append(rows, m)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	both := false
	for _, m := range rows {
		if m["verdict"] != nil {
			continue
		}
		m["score"] = rng.Float64()
		if !both {
			m["verdict"], both = "success", true
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, m := range rows {
		if err := enc.Encode(m); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func firstDiff(a, b []queries.MetricScore) []string {
	var out []string
	for i := 0; i < len(a) && i < len(b) && len(out) < 3; i++ {
		if a[i] != b[i] {
			out = append(out, fmt.Sprintf("%+v vs %+v", a[i], b[i]))
		}
	}
	return out
}
