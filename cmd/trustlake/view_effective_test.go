package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestViewEpisodeEffective checks the values the metrics use for an
// episode, as the viewer shows them, against the lake: the verifier's pass
// from `trustlake sql`, and the human pass of one annotator, of two who
// disagree (no majority) and of none.
func TestViewEpisodeEffective(t *testing.T) {
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	mustRun(t, "gen", "--out", data, "--tasks", "3", "--episodes-per-task", "2")
	mustRun(t, "--lake", lakeDir, "ingest", "episodes", filepath.Join(data, "episodes"))
	out := mustRun(t, "--lake", lakeDir, "sql", "--format", "csv",
		"SELECT episode_id || '|' || pass AS k FROM ground_truth WHERE verifier_sha256 <> '' ORDER BY episode_id LIMIT 3")
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(rows) != 3 {
		t.Fatalf("ground truth rows: %q", rows)
	}
	ids, verifier := make([]string, 3), make([]string, 3)
	for i, r := range rows {
		ids[i], verifier[i], _ = strings.Cut(r, "|")
	}
	labels := filepath.Join(dir, "human.csv")
	csv := "episode_id,pass,annotator\n" + ids[0] + ",pass,A\n" + ids[1] + ",pass,A\n" + ids[1] + ",fail,B\n"
	if err := os.WriteFile(labels, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--lake", lakeDir, "ingest", "human-labels", labels)
	v := startView(t, lakeDir)
	want := []struct {
		human string
		n     int64
	}{{"true", 1}, {"null", 2}, {"null", 0}}
	for i, id := range ids {
		var d struct {
			Effective struct {
				VerifierPass *bool `json:"verifier_pass"`
				HumanPass    *bool `json:"human_pass"`
				NAnnotators  int64 `json:"n_annotators"`
			} `json:"effective"`
		}
		if code := v.get(t, "/api/episodes/"+id, &d); code != 200 {
			t.Fatalf("%s: status %d", id, code)
		}
		e := d.Effective
		if e.VerifierPass == nil || strconv.FormatBool(*e.VerifierPass) != verifier[i] {
			t.Errorf("%s: verifier_pass %v, want %s (trustlake sql)", id, e.VerifierPass, verifier[i])
		}
		human := "null"
		if e.HumanPass != nil {
			human = strconv.FormatBool(*e.HumanPass)
		}
		if human != want[i].human || e.NAnnotators != want[i].n {
			t.Errorf("%s: human_pass %s from %d annotators, want %s from %d", id, human, e.NAnnotators, want[i].human, want[i].n)
		}
	}
}
