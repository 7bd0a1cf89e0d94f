package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/metrics"

	"github.com/trustlake/trustlake/internal/testenv"
)

// TestAgentRewardBenchExample runs examples/agentrewardbench/run.sh with
// this test binary as the trustlake command on the real WebJudge ×
// AgentRewardBench data, checks the confusion counts against numbers
// computed independently from the raw files (Python, json + csv + re), and
// checks that the example's README.md holds the tables the script prints.
// It skips when the shared data is absent.
func TestAgentRewardBenchExample(t *testing.T) {
	dir := filepath.Dir(sharedData(t, "webjudge-agentrewardbench/webjudge_on_agentrewardbench.slim.jsonl"))
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, testenv.Bash, "bash not on PATH: cannot run examples/agentrewardbench/run.sh")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "bash", filepath.Join("..", "..", "examples", "agentrewardbench", "run.sh"), out)
	cmd.Env = append(os.Environ(), "TRUSTLAKE="+self, "TRUSTLAKE_AS_MAIN=1", "ARB_DATA="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run.sh: %v\n%s", err, stderr.String())
	}
	// Independent counts: tp, fp, tn, fn per judge.
	want := map[string]map[string][4]int{
		"reward": {"gpt-4o-2024-11-20": {9, 11, 77, 1}, "o4-mini": {65, 34, 354, 45}, "webjudge-7B": {105, 85, 656, 78}},
		"expert": {"gpt-4o-2024-11-20": {15, 2, 74, 1}, "o4-mini": {82, 14, 329, 66}, "webjudge-7B": {147, 38, 635, 94}},
	}
	for gt, judges := range want {
		b, err := os.ReadFile(filepath.Join(out, "metrics-"+gt+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep metrics.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Rows) != len(judges) {
			t.Errorf("%s: %d rows, want %d", gt, len(rep.Rows), len(judges))
		}
		for _, r := range rep.Rows {
			if got := [4]int{r.TP, r.FP, r.TN, r.FN}; got != judges[r.Judge] {
				t.Errorf("%s %s: tp fp tn fn = %v, want %v", gt, r.Judge, got, judges[r.Judge])
			}
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "examples", "agentrewardbench", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(strings.TrimSpace(stdout.String()), "\n\n") {
		if !bytes.Contains(readme, []byte(block)) {
			t.Errorf("examples/agentrewardbench/README.md does not hold this output of run.sh (regenerate it):\n%s", block)
		}
	}
}
