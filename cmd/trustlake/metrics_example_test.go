package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
		// examples/agentrewardbench/reference.py: majority of the human judgments.
		"expert": {"gpt-4o-2024-11-20": {16, 2, 74, 1}, "o4-mini": {83, 14, 329, 66}, "webjudge-7B": {148, 38, 635, 94}},
	}
	// reference.py's accuracy, its 95% Wilson interval and Cohen's κ against
	// the human majority.
	wantAgree := map[string][4]float64{
		"gpt-4o-2024-11-20": {0.967741935483871, 0.9094061748887851, 0.988969387184108, 0.8944381384790012},
		"o4-mini":           {0.8373983739837398, 0.8022002249318807, 0.867368634416078, 0.5727590473916158},
		"webjudge-7B":       {0.8557377049180328, 0.8314835868282322, 0.877017312593023, 0.5995304977519595},
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
			if gt != "expert" {
				continue
			}
			w := wantAgree[r.Judge]
			got := [4]float64{r.Accuracy.Value, r.Accuracy.Wilson[0], r.Accuracy.Wilson[1], r.Kappa.Value}
			for i := range w {
				if math.Abs(got[i]-w[i]) > 1e-9 {
					t.Errorf("expert %s: accuracy, Wilson lo, hi, kappa = %v, want %v", r.Judge, got, w)
					break
				}
			}
			if lo, hi := r.Accuracy.Boot[0], r.Accuracy.Boot[1]; !(lo <= r.Accuracy.Value && r.Accuracy.Value <= hi) {
				t.Errorf("expert %s: accuracy bootstrap [%v, %v] misses %v", r.Judge, lo, hi, r.Accuracy.Value)
			}
		}
		if gt == "expert" {
			ref := rep.Reference
			if ref.Episodes != 1302 || ref.Annotators != 8 || ref.Judgments != 1407 || ref.MultiAnnotated != 105 || ref.Unanimous != 93 || ref.Ties != 12 ||
				math.Abs(float64(ref.FleissKappa)-0.7552447552447552) > 1e-12 || rep.Params.GT != "human" {
				t.Errorf("human reference %+v (gt %s), want reference.py's 1302 episodes, 8 annotators, 1407 judgments, 105 multi, 93 unanimous, 12 ties, κ 0.7552447552447552", ref, rep.Params.GT)
			}
		}
	}
	readmePath := filepath.Join("..", "..", "examples", "agentrewardbench", "README.md")
	if *update {
		// The README quotes the terminal: stdout, then the warnings on stderr.
		body := strings.TrimSpace(stdout.String()) + "\n"
		var warnings []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(l, "warning: ") && !slices.Contains(warnings, l) {
				warnings = append(warnings, l)
			}
		}
		if len(warnings) > 0 {
			body += "\n" + strings.Join(warnings, "\n") + "\n"
		}
		updateDoc(t, readmePath, "## Result (`run.sh`, seed 20261010, 2000 task-clustered bootstrap resamples)\n\n```\n", "```", body)
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(strings.TrimSpace(stdout.String()), "\n\n") {
		if !bytes.Contains(readme, []byte(block)) {
			t.Errorf("examples/agentrewardbench/README.md does not hold this output of run.sh (rewrite it with make golden):\n%s", block)
		}
	}
}
