package spark_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/internal/sparktest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/derived"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/sim"
)

func TestMain(m *testing.M) {
	code := sparktest.Main(m)
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

// fixture is the lake of fixtureLake, written once per test process in
// its own folder (removed by TestMain). Tests only read it.
var fixture struct {
	once sync.Once
	dir  string
	lake *lake.Lake
}

// sharedLake returns the fixture lake, built by the first test that asks.
func sharedLake(t *testing.T) *lake.Lake {
	t.Helper()
	fixture.once.Do(func() {
		dir, err := os.MkdirTemp("", "trustlake-spark-fixture-")
		if err != nil {
			t.Fatal(err)
		}
		fixture.dir = dir
		fixture.lake = fixtureLake(t, dir)
	})
	if fixture.lake == nil {
		t.Fatal("the fixture lake failed to build (see the first test)")
	}
	return fixture.lake
}

// records feeds ingest.Records from a slice.
func records(recs []map[string]any) ingest.RecordSource {
	i := 0
	return func() (map[string]any, bool, error) {
		if i == len(recs) {
			return nil, false, nil
		}
		i++
		return recs[i-1], true, nil
	}
}

// fixtureLake writes a lake with every table filled: a simulated benchmark
// (episodes with actions and ground truth, verdicts of VLM judges and a
// reward model under four conditions, partition values such as
// "sim:vlm-a" and "E2+claim" that need percent-encoding), labels, results,
// trust and selftests rows with NULLs, JSON text and timestamps. It then
// leaves a superseded file (a verdict replaced) and an orphan (a copy of a
// live file) in the table folders: an engine that reads either one counts
// rows twice.
func fixtureLake(t *testing.T, dir string) *lake.Lake {
	t.Helper()
	ctx := t.Context()
	gen := filepath.Join(dir, "gen")
	if _, err := sim.Generate(ctx, gen, sim.Options{Tasks: 12, EpisodesPerTask: 3}); err != nil {
		t.Fatal(err)
	}
	dst, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	dirs, _, err := ingest.EpisodeDirs([]string{filepath.Join(gen, "episodes")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Episodes(ctx, dst, dirs, ingest.Options{}); err != nil {
		fatal(t, "ingest", err)
	}
	vfiles, _ := filepath.Glob(filepath.Join(gen, "verdicts", "*.jsonl"))
	if _, err := ingest.Verdicts(ctx, dst, vfiles, ingest.Options{}); err != nil {
		fatal(t, "ingest", err)
	}
	ids := episodeIDs(t, gen)
	someEpisode := ids[0]
	mustRecords(t, ctx, dst, lake.Labels, []map[string]any{
		{"episode_id": ids[1], "category": "F-PARTIAL", "annotator": "ann'1", "note": "quote ' and \\ backslash"},
		{"episode_id": ids[2], "category": "F-ABORT"},
	})
	mustRecords(t, ctx, dst, lake.Results, []map[string]any{
		{"result_id": "r1", "benchmark": "bench/ü %", "task_id": "t1", "agent": "a", "trial": 1, "score": 1.0,
			"recorded_pass": true, "episode_id": someEpisode, "final_message": "Done!", "grader": map[string]any{"outputs": []string{"4500"}}},
		{"result_id": "r2", "benchmark": "bench/ü %", "task_id": "t1", "agent": "a", "trial": 2, "score": 0.25,
			"recorded_pass": false, "grader": map[string]any{}, "infra_error": "timeout"},
	})
	if _, err := derived.Write(ctx, dst, lake.Trust, []schema.Trust{
		{ResultID: "r1", Benchmark: "bench/ü %", TaskID: "t1", Agent: "a", Trial: 1, RecordedScore: 1, RecordedPass: true, D1Outcome: "confirm"},
	}); err != nil {
		fatal(t, "ingest", err)
	}
	ran := time.Date(2026, 10, 10, 9, 14, 0, 123456000, time.UTC)
	cat := "F-UNCOMMITTED"
	if _, err := derived.Write(ctx, dst, lake.SelfTests, []schema.SelfTest{
		{TaskID: "t1", VerifierSHA256: "v1", Fixture: "pass/done", WantPass: true, GotPass: true, Deterministic: true, OK: true, Sandbox: "none", RanAt: &ran},
		{TaskID: "t1", VerifierSHA256: "v1", Fixture: "fail/x", WantCategory: &cat, GotCategory: &cat, Deterministic: true, OK: true, Sandbox: "none"},
	}); err != nil {
		fatal(t, "ingest", err)
	}
	// reviews (written by `trustlake view --review`): a category with a note
	// holding quotes and non-ASCII text, then a pass/fail judgment.
	note, pass, prev := "revu, \"fini\" ? non…", false, "F-PARTIAL"
	if _, err := derived.Write(ctx, dst, lake.Reviews, []schema.Review{
		{EpisodeID: ids[0], ReviewID: "2026-10-10T09:14:00.123456Z-a1", Reviewer: "rév", At: ran, Category: &cat, Note: &note, PrevCategory: &prev},
		{EpisodeID: ids[0], ReviewID: "2026-10-10T09:15:00Z-b2", Reviewer: "rév", At: ran.Add(time.Minute), Pass: &pass, PrevCategory: &cat},
	}); err != nil {
		fatal(t, "ingest", err)
	}
	human := "episode_id,pass,annotator,note\n"
	for i, id := range ids[:12] {
		human += fmt.Sprintf("%s,%v,ann-a,\n%s,%v,ann-b,\n", id, i%3 != 0, id, i%4 != 0)
		if i%2 == 0 {
			human += fmt.Sprintf("%s,%v,ann-c,\"tie-breaker, quoted\"\n", id, i%5 == 0)
		}
	}
	hfile := filepath.Join(dir, "human.csv")
	if err := os.WriteFile(hfile, []byte(human), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.HumanLabels(ctx, dst, []string{hfile}, ingest.Options{}); err != nil {
		fatal(t, "ingest human labels", err)
	}
	writeEvidence(t, dst, []schema.Evidence{
		{EpisodeID: someEpisode, Condition: "E2+claim", PackSHA256: "p1", TaskID: "t1", Inputs: `["task_text","screenshots"]`,
			Steps: "[21,22]", ImageSHA256: `["a","b"]`, NImages: 2, ImageBytes: 2048, PackBytes: 4096, LastK: 4, Guard: "v1"},
		{EpisodeID: someEpisode, Condition: "E1-final", PackSHA256: "p2", TaskID: "t1", Inputs: "[]", Steps: "[]", ImageSHA256: "[]", Guard: "v1"},
	})
	// A superseded file: replace one verdict's content. The old file stays
	// on disk (tombstoned) for running readers.
	var v map[string]any
	if err := json.Unmarshal([]byte(readFirstLine(t, vfiles[0])), &v); err != nil {
		t.Fatal(err)
	}
	v["confidence"] = 0.125
	line, _ := json.Marshal(v)
	repl := filepath.Join(dir, "replace.jsonl")
	if err := os.WriteFile(repl, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Verdicts(ctx, dst, []string{repl}, ingest.Options{Replace: true}); err != nil {
		fatal(t, "replace", err)
	}
	// An orphan: a copy of a live verdict file that no manifest lists.
	files, err := dst.Files(lake.Verdicts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(files[0]), "part-orphan.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeEvidence commits evidence rows through the lake's writer.
func writeEvidence(t *testing.T, dst *lake.Lake, rows []schema.Evidence) {
	t.Helper()
	tx, err := dst.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Evidence](tx, lake.Evidence, lake.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].SrcFile, rows[i].SrcLine = "test-evidence", int64(i+1)
		if _, err := w.Add(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func mustRecords(t *testing.T, ctx context.Context, dst *lake.Lake, table string, recs []map[string]any) {
	t.Helper()
	if _, err := ingest.Records(ctx, dst, table, "test-"+table, records(recs), ingest.Options{}); err != nil {
		fatal(t, "ingest "+table, err)
	}
}

// fatal ends the test with err and every rejected record it carries.
func fatal(t *testing.T, what string, err error) {
	t.Helper()
	var re ingest.RecordErrors
	if errors.As(err, &re) {
		for _, r := range re {
			t.Log(r)
		}
	}
	t.Fatalf("%s: %v", what, err)
}

func episodeIDs(t *testing.T, gen string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(gen, "episodes"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range ents {
		ids = append(ids, e.Name())
	}
	if len(ids) < 3 {
		t.Fatalf("want at least 3 episodes, got %d", len(ids))
	}
	return ids
}

func readFirstLine(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return line
}
