package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/internal/testenv"
)

func runOK(t *testing.T, lakeDir string, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := trustlakeCmd(lakeDir, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("trustlake %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// sameWithAndWithout runs each command on a lake and on its copy without
// run_counts, and wants the same output, byte for byte.
func sameWithAndWithout(t *testing.T, lakeDir string, commands [][]string) {
	t.Helper()
	old := lakecopy.WithoutRunCounts(t, lakeDir)
	for _, args := range commands {
		with, without := runOK(t, lakeDir, args...), runOK(t, old, args...)
		if len(with) < 100 {
			t.Errorf("%s: output too short: %s", strings.Join(args, " "), with)
		}
		if !bytes.Equal(with, without) {
			t.Errorf("%s: output differs with run_counts (%d bytes) and without (%d bytes)", strings.Join(args, " "), len(with), len(without))
		}
	}
}

// TestRunCountsSameMetrics: metrics and compare give the same output, byte
// for byte, from the run_counts table and from the verdicts themselves
// (the fallback for lakes written before it), on a generated lake built
// to exercise the table (eight runs, a reward model whose episodes need two
// run_counts rows, two batches splitting episodes across files), on one
// with one run_counts row per episode (read without summing) and on the
// real AgentRewardBench lakes of examples/agentrewardbench.
func TestRunCountsSameMetrics(t *testing.T) {
	dir := t.TempDir()
	runOK(t, filepath.Join(dir, "lake"), "gen", "--out", filepath.Join(dir, "gen"), "--tasks", "12", "--episodes-per-task", "2",
		"--runs", "8", "--no-episodes", "--single-verdicts-file")
	// Two batches: alternate lines, so most episodes have runs in both.
	f, err := os.Open(filepath.Join(dir, "gen", "verdicts", "verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var halves [2]bytes.Buffer
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		halves[i%2].Write(append(sc.Bytes(), '\n'))
	}
	f.Close()
	lk := filepath.Join(dir, "lake")
	runOK(t, lk, "ingest", "episodes", filepath.Join(dir, "gen", "episodes"))
	for i := range halves {
		name := filepath.Join(dir, "half"+string(rune('a'+i))+".jsonl")
		os.WriteFile(name, halves[i].Bytes(), 0o644)
		runOK(t, lk, "ingest", "verdicts", name)
	}
	if got := strings.TrimSpace(string(runOK(t, lk, "sql", "-f", "csv", "SELECT max(seq) AS s, count(DISTINCT _src_file) AS f FROM run_counts"))); got != "s,f\n1,24" {
		t.Fatalf("run_counts: max seq and counted files %q, want 1 and 24 (two files for each of 12 partitions)", got)
	}
	sameWithAndWithout(t, lk, [][]string{
		{"metrics", "--json", "--by", "category", "--by", "source", "--threshold", "0.5", "--bootstrap", "200"},
		{"metrics", "--json", "--by", "agent", "--by", "hardness", "--by", "task", "--bootstrap", "200"},
		{"metrics", "--json", "--uncertain-policy", "exclude", "--threshold", "0.35", "--bootstrap", "200"},
		{"compare", "--json", "--claim-sway", "sim:vlm-a", "--bootstrap", "200"},
		{"compare", "--json", "--threshold", "0.4", "--bootstrap", "200", "sim:rm-1@E1-final", "sim:vlm-b@E1-final"},
	})

	// One batch of three runs: one run_counts row per episode, so the
	// metrics take the rows as they are (no sum per episode).
	one := filepath.Join(dir, "one")
	runOK(t, one, "gen", "--out", filepath.Join(dir, "gen3"), "--tasks", "12", "--episodes-per-task", "2", "--no-episodes", "--single-verdicts-file")
	runOK(t, one, "ingest", "episodes", filepath.Join(dir, "gen3", "episodes"))
	runOK(t, one, "ingest", "verdicts", filepath.Join(dir, "gen3", "verdicts", "verdicts.jsonl"))
	if got := strings.TrimSpace(string(runOK(t, one, "sql", "-f", "csv", "SELECT max(seq) AS s, count(DISTINCT _src_file) AS f, count(score_3) > 0 AS scored FROM run_counts"))); got != "s,f,scored\n0,12,true" {
		t.Fatalf("run_counts of one batch: %q, want max seq 0, 12 files, three scores in some rows", got)
	}
	sameWithAndWithout(t, one, [][]string{
		{"metrics", "--json", "--by", "category", "--by", "source", "--threshold", "0.5", "--bootstrap", "200"},
		{"metrics", "--json", "--by", "agent", "--bootstrap", "200"},
		{"compare", "--json", "--claim-sway", "sim:vlm-b", "--bootstrap", "200"},
	})

	// The real WebJudge × AgentRewardBench lakes (one run per judge, one
	// row per episode).
	data := filepath.Dir(sharedData(t, "webjudge-agentrewardbench/webjudge_on_agentrewardbench.slim.jsonl"))
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, testenv.Bash, "bash not on PATH: cannot run examples/agentrewardbench/run.sh")
	}
	self, _ := os.Executable()
	out := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "bash", filepath.Join("..", "..", "examples", "agentrewardbench", "run.sh"), out)
	cmd.Env = append(os.Environ(), "TRUSTLAKE="+self, "TRUSTLAKE_AS_MAIN=1", "ARB_DATA="+data, "BOOTSTRAP=100")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run.sh: %v\n%s", err, b)
	}
	sameWithAndWithout(t, filepath.Join(out, "lake-reward"), [][]string{{"metrics", "--json", "--bootstrap", "300"}})
	sameWithAndWithout(t, filepath.Join(out, "lake-expert"), [][]string{
		{"metrics", "--json", "--gt", "human", "--bootstrap", "300"},
		{"compare", "--json", "--gt", "human", "--bootstrap", "300", "o4-mini@webjudge", "webjudge-7B@webjudge"},
	})
}
