package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeOpenAI speaks the chat-completions wire format of the openai backend
// (a paid service, so the one fake the tests allow): every call answers
// with the rubric's JSON, success for even calls and failure for odd ones.
func fakeOpenAI(t *testing.T) *httptest.Server {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
			http.Error(w, "unexpected request "+r.URL.Path, http.StatusBadRequest)
			return
		}
		verdict := "success"
		if calls.Add(1)%2 == 1 {
			verdict = "failure"
		}
		content, _ := json.Marshal(map[string]any{"verdict": verdict, "confidence": 0.7, "evidence": "fake reply"})
		json.NewEncoder(w).Encode(map[string]any{
			"id": "cmpl-1", "object": "chat.completion", "model": "gpt-4o",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// writeRecordedResults writes dir/recorded.jsonl: one recorded pass per
// episode under runs/ (a lenient benchmark that passed everything), the
// trials numbered per task.
func writeRecordedResults(t *testing.T, dir string) {
	t.Helper()
	eps, err := filepath.Glob(filepath.Join(dir, "runs", "*", "meta.json"))
	if err != nil || len(eps) == 0 {
		t.Fatalf("no episodes under runs/: %v", err)
	}
	sort.Strings(eps)
	trials := map[string]int{}
	var b strings.Builder
	for _, p := range eps {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			EpisodeID    string `json:"episode_id"`
			TaskID       string `json:"task_id"`
			FinalMessage string `json:"final_message"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(map[string]any{"benchmark": "readme", "task_id": m.TaskID, "agent": "fixture",
			"trial": trials[m.TaskID], "score": 1, "episode_id": m.EpisodeID, "final_message": m.FinalMessage})
		trials[m.TaskID]++
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "recorded.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadmePipelineRuns runs the README's "Your own data" block as
// written, with trustlake on PATH: the episodes are the task library's
// scripted ones (runs/), the openai judge is a fake server speaking its wire
// format (TRUSTLAKE_JUDGE_BASE_URL), and `trustlake view` is stopped with
// SIGINT after it has started (it serves until then).
func TestReadmePipelineRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("the README pipeline takes about half a minute")
	}
	page := "../../README.md"
	var pipeline []docBlock
	for _, b := range shellBlocks(t, page) {
		if strings.Contains(b.script, "trustlake ingest episodes") {
			pipeline = append(pipeline, b)
		}
	}
	if len(pipeline) != 1 {
		t.Fatalf("%s: %d pipeline blocks (starting with trustlake ingest episodes), want 1", page, len(pipeline))
	}
	dir := docsWorkdir(t)
	gen := exec.CommandContext(t.Context(), filepath.Join(dir, "bin", "trustlake"), "tasks", "episodes", "--script",
		"--out", "runs", "sheet_set_cell_d14", "csv_fix_price", "files_move_invoices")
	gen.Dir = dir
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("tasks episodes: %v\n%s", err, out)
	}
	writeRecordedResults(t, dir)
	// view serves until SIGINT: this wrapper stops it after 3 s; view exits 0.
	wrapper := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = view ]; then exec timeout --preserve-status -s INT 3 \"$0\"-bin \"$@\"; fi\nexec \"$0\"-bin \"$@\"\n")
	bin := filepath.Join(dir, "bin", "trustlake")
	if err := os.Rename(bin, bin+"-bin"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := fakeOpenAI(t)
	runDocBlocks(t, dir, page, pipeline,
		"PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"),
		"TRUSTLAKE_LAKE="+filepath.Join(dir, "lake"),
		"TRUSTLAKE_CHECK_BINARY="+filepath.Join(dir, "bin", "trustlake-check"),
		"TRUSTLAKE_JUDGE_BASE_URL="+srv.URL, "OPENAI_API_KEY=test-key")
	for _, f := range []string{"nightly/report.json", "nightly/report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the pipeline wrote no %s: %v", f, err)
		}
	}
}
