package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// trustlakeRun runs the CLI in-process and fails the test on a non-zero
// exit; it returns stdout.
func trustlakeRun(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), append([]string{"trustlake"}, args...), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("trustlake %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// TestTauBenchExample runs examples/tau-bench/run.sh's two commands
// in-process on the real τ-bench file and checks that the example's
// README.md holds exactly the tables the CLI prints today, and the figures
// its text quotes. It skips when the shared data is absent.
func TestTauBenchExample(t *testing.T) {
	file := sharedData(t, "tau-bench/gpt-4o-airline.json")
	lakeDir := filepath.Join(t.TempDir(), "lake")
	out := trustlakeRun(t, "--lake", lakeDir, "ingest", "tau-bench", file)
	if want := "results: 200 new, 0 unchanged\n"; !strings.Contains(out, want) {
		t.Errorf("ingest printed %q, want it to contain %q", out, want)
	}
	out = trustlakeRun(t, "--lake", lakeDir, "trust")
	tables, stored, ok := strings.Cut(out, "\ntrust: ")
	if !ok || stored != "200 new, 0 unchanged, 0 replaced\n" {
		t.Fatalf("trust output does not end with the stored summary:\n%s", out)
	}
	readmePath := filepath.Join("..", "..", "examples", "tau-bench", "README.md")
	if *update {
		updateDoc(t, readmePath, "## Tables (D2 lenient)\n\n", "\nUnder `--d2-unconfirmed strict`", tables)
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte(tables)) {
		t.Errorf("examples/tau-bench/README.md does not hold the current tables; rewrite them with make golden:\n%s", tables)
	}
	// The README says: under strict D2 the only change is −D2 = 1, and
	// trusted stays 40; every audit row is replaced because it records the
	// policy it was judged under.
	out = trustlakeRun(t, "--lake", lakeDir, "trust", "--d2-unconfirmed", "strict")
	if want := "| tau-bench-airline | gpt-4o | 200 | 84 | 84 | 0 | 1 | 0 | 44 | 40 | 47.6% [37.3, 58.2] |"; !strings.Contains(out, want) {
		t.Errorf("strict D2: no row %q in\n%s", want, out)
	}
	if want := "trust: 0 new, 0 unchanged, 200 replaced\n"; !strings.HasSuffix(out, want) {
		t.Errorf("strict D2 re-run: want %q at the end of\n%s", want, out)
	}
}

// TestTauBenchPassK checks pass^k on the real τ-bench file against
// τ-bench's own definition (tau_bench/run.py display_metrics), computed by
// examples/tau-bench/passk.py (python stdlib, reads the raw file): 50
// tasks, 4 trials, pass^1..4 = 0.42, 0.27333…, 0.22, 0.2. Every k is on the
// same 50 tasks; with --infra-policy failure nothing changes (the file marks
// no infrastructure failure).
func TestTauBenchPassK(t *testing.T) {
	file := testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
	lakeDir := filepath.Join(t.TempDir(), "lake")
	trustlakeRun(t, "--lake", lakeDir, "ingest", "tau-bench", file)
	want := []float64{0.42, 0.2733333333333333, 0.22, 0.2}
	for _, policy := range []string{"exclude", "failure"} {
		var rep struct {
			InfraPolicy string `json:"infra_policy"`
			Total       struct {
				D4 struct {
					PassHatK     []float64 `json:"pass_hat_k"`
					PassK        int       `json:"pass_k"`
					PassKTasks   int       `json:"pass_k_tasks"`
					PassKLeftOut int       `json:"pass_k_left_out"`
				} `json:"d4"`
			} `json:"total"`
		}
		out := trustlakeRun(t, "--lake", lakeDir, "trust", "--json", "--infra-policy", policy)
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		d := rep.Total.D4
		if rep.InfraPolicy != policy || d.PassK != 4 || d.PassKTasks != 50 || d.PassKLeftOut != 0 || len(d.PassHatK) != len(want) {
			t.Fatalf("%s: policy %s K %d tasks %d left out %d pass^k %v", policy, rep.InfraPolicy, d.PassK, d.PassKTasks, d.PassKLeftOut, d.PassHatK)
		}
		for k := range want {
			if math.Abs(d.PassHatK[k]-want[k]) > 1e-12 {
				t.Errorf("%s: pass^%d = %v, τ-bench's definition gives %v", policy, k+1, d.PassHatK[k], want[k])
			}
		}
	}
}
