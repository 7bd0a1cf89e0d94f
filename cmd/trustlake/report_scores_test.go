package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
)

// The report reads the scores of all its reward models in one statement
// and averages them in Go (Session.ReportScores): every judge × condition
// and source must give exactly MetricsScores' rows, the same bits of every
// mean, on lakes whose run counts hold one row per episode or not, with
// runs met backwards, parse errors, null scores and verdicts that carry a
// score.
func TestReportScoresAsMetricsScores(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprint("split=", split), func(t *testing.T) {
			lakeDir := genLake(t, split)
			l, err := lake.OpenExisting(lakeDir, lake.Options{})
			if err != nil {
				t.Fatal(err)
			}
			episodes := naturalEpisodes(t, l, 3)
			// rm:odd: runs backwards; a parse error between two scores; an
			// episode whose runs are all unscored; vlm:scored: verdicts
			// that carry a score.
			var lines []byte
			add := func(ep, judge string, run int, verdict, score string) {
				lines = fmt.Appendf(lines, `{"episode_id":%q,"judge":%q,"condition":"E1-final","run":%d,"verdict":%s,"score":%s}`+"\n",
					ep, judge, run, verdict, score)
			}
			add(episodes[0], "rm:odd", 3, "null", "0.3")
			add(episodes[0], "rm:odd", 2, `"parse_error"`, "null")
			add(episodes[0], "rm:odd", 1, "null", "0.1")
			add(episodes[1], "rm:odd", 2, "null", "0.7")
			add(episodes[1], "rm:odd", 1, "null", "0.2")
			add(episodes[1], "rm:odd", 4, "null", "0.6")
			add(episodes[2], "rm:odd", 1, `"parse_error"`, "null")
			add(episodes[0], "vlm:scored", 1, `"success"`, "0.9")
			add(episodes[0], "vlm:scored", 2, `"failure"`, "null")
			p := filepath.Join(t.TempDir(), "odd.jsonl")
			if err := os.WriteFile(p, lines, 0o644); err != nil {
				t.Fatal(err)
			}
			if code, _, stderr := trustlakeExit(t, "--lake", lakeDir, "ingest", "verdicts", p); code != 0 {
				t.Fatalf("ingest: exit %d\n%s", code, stderr)
			}
			s, err := queries.Open(t.Context(), l, queries.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			all, err := s.MetricsJudgeConditions(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var jcs []queries.JudgeCondition
			for _, jc := range all {
				jcs = append(jcs, jc.JudgeCondition)
			}
			r, err := s.ReadReportRuns(t.Context(), 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, source := range []string{"natural", "perturbed", "none"} {
				got, err := s.ReportScores(t.Context(), r, jcs, source)
				if err != nil {
					t.Fatal(err)
				}
				scored := 0
				for i, jc := range jcs {
					want, err := s.MetricsScores(t.Context(), jc, source)
					if err != nil {
						t.Fatal(err)
					}
					scored += len(want)
					if !reflect.DeepEqual(got[i], want) {
						t.Errorf("%s %s: ReportScores\n%+v\nMetricsScores\n%+v", jc, source, got[i], want)
					}
				}
				if source == "natural" && scored == 0 {
					t.Errorf("no scored episode: the test compares nothing")
				}
			}
		})
	}
}

// naturalEpisodes returns n natural episodes with ground truth.
func naturalEpisodes(t *testing.T, l *lake.Lake, n int) []string {
	t.Helper()
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Query(t.Context(), "SELECT c.episode_id FROM categories c JOIN episodes e USING (episode_id) "+
		"WHERE c.gt_pass IS NOT NULL AND e.source = 'natural' ORDER BY 1 LIMIT ?", n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if len(out) < n {
		t.Fatalf("%d natural episodes with ground truth, want %d", len(out), n)
	}
	return out
}
