package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/sim"
)

// TestReportCorrectedRatesMatchRateCLI builds a report on a generated lake
// where part of the episodes keep their ground truth (the strong agent's
// more often: the pooled rows warn about the agent mix) and τ-bench
// results with repeats, and checks that report.json's corrected rates are
// trustlake rate --json's rows (pooled, and per agent) and its Trust Layer
// D4 intervals trustlake trust --json's, and that report.md and
// report.html show both.
func TestReportCorrectedRatesMatchRateCLI(t *testing.T) {
	lakeDir, _, _ := rateLake(t, 5, func(agent string, rng *rand.Rand) bool {
		if agent == "sim:agent-strong" {
			return rng.Float64() < 0.5
		}
		return rng.Float64() < 0.15
	})
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "tau.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.WriteTauBench(f, sim.ResultsOptions{Results: 300, Trials: 5, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if code, _, stderr := trustlakeExit(t, "--lake", lakeDir, "ingest", "tau-bench", "--agent", "sim:agent", f.Name()); code != 0 {
		t.Fatalf("ingest tau-bench: exit %d\n%s", code, stderr)
	}
	out := filepath.Join(dir, "report")
	common := []string{"--bootstrap", "300", "--seed", "11"}
	if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir, "report", "--out", out}, common...)...); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	var doc struct {
		Rates struct {
			Prediction, Assumption string
			Rows                   []any    `json:"rows"`
			ByAgent                []any    `json:"by_agent"`
			Warnings               []string `json:"warnings"`
		} `json:"corrected_rates"`
		Trust struct {
			Agents []struct{ D4 map[string]any } `json:"agents"`
			Total  struct{ D4 map[string]any }   `json:"total"`
		} `json:"trust"`
	}
	readJSONFile(t, filepath.Join(out, "report.json"), &doc)
	rc := doc.Rates
	type rateOut struct {
		Assumption, Prediction string
		Rows                   []any
		Warnings               []string
	}
	var pooled, byAgent rateOut
	cliJSON(t, lakeDir, &pooled, append([]string{"rate", "--json"}, common...)...)
	cliJSON(t, lakeDir, &byAgent, append([]string{"rate", "--json", "--by", "agent"}, common...)...)
	if len(pooled.Rows) < 2 || len(byAgent.Rows) != 2*len(pooled.Rows) {
		t.Fatalf("rate: %d pooled rows, %d per agent: want several judge × conditions and two agents", len(pooled.Rows), len(byAgent.Rows))
	}
	if !reflect.DeepEqual(rc.Rows, pooled.Rows) {
		t.Errorf("report's corrected rates differ from trustlake rate --json:\nreport %v\nrate   %v", rc.Rows, pooled.Rows)
	}
	if !reflect.DeepEqual(rc.ByAgent, byAgent.Rows) {
		t.Errorf("report's per-agent corrected rates differ from trustlake rate --by agent --json:\nreport %v\nrate   %v", rc.ByAgent, byAgent.Rows)
	}
	if rc.Assumption != pooled.Assumption || rc.Prediction != pooled.Prediction || !strings.Contains(rc.Assumption, "random subset") {
		t.Errorf("assumption %q prediction %q, rate %q %q", rc.Assumption, rc.Prediction, pooled.Assumption, pooled.Prediction)
	}
	mix := false
	for _, w := range append(pooled.Warnings, byAgent.Warnings...) {
		if !strings.Contains(strings.Join(rc.Warnings, "\n"), w) {
			t.Errorf("report lacks rate's warning %q", w)
		}
		mix = mix || strings.Contains(w, "differ in agent mix")
	}
	if !mix {
		t.Errorf("no agent-mix warning on a biased ground truth: %q", rc.Warnings)
	}

	// The Trust Layer's D4 intervals are trust --json's.
	var tr struct {
		PerAgent []struct{ D4 map[string]any } `json:"per_agent"`
		Total    struct{ D4 map[string]any }   `json:"total"`
	}
	cliJSON(t, lakeDir, &tr, append([]string{"trust", "--json"}, common...)...)
	if len(tr.PerAgent) == 0 || len(tr.PerAgent) != len(doc.Trust.Agents) {
		t.Fatalf("trust: %d agents, report %d", len(tr.PerAgent), len(doc.Trust.Agents))
	}
	keys := []string{"tasks", "varied_rate", "varied_rate_boot", "pass_hat_k", "pass_hat_k_boot", "pass_k", "pass_k_tasks"}
	check := func(name string, got, want map[string]any) {
		t.Helper()
		for _, k := range keys {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s d4.%s: report %v, trust --json %v", name, k, got[k], want[k])
			}
		}
		if want["varied_rate_boot"] == nil || len(want["pass_hat_k_boot"].([]any)) < 2 || want["pass_hat_k_boot"].([]any)[0] == nil {
			t.Errorf("%s: trust --json has no D4 intervals to compare: %v", name, want)
		}
	}
	for i, a := range tr.PerAgent {
		check(fmt.Sprint("agent ", i), doc.Trust.Agents[i].D4, a.D4)
	}
	check("total", doc.Trust.Total.D4, tr.Total.D4)

	// report.md and report.html show the figures.
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	cell := func(e map[string]any) string {
		ci, boot := e["ci"].([]any), e["boot"].([]any)
		return fmt.Sprintf("%.3f [%.3f, %.3f] {%.3f, %.3f}", e["value"], ci[0], ci[1], boot[0], boot[1])
	}
	for _, r := range append(append([]any{}, rc.Rows...), rc.ByAgent...) {
		row := r.(map[string]any)
		tuned := cell(row["ppi_tuned"].(map[string]any))
		line := fmt.Sprintf("| %s | %s | %s | %v | %v | %s |", row["agent"], row["judge"], row["condition"], row["n_labelled"], row["n_unlabelled"],
			cell(row["judge_only"].(map[string]any)))
		if !strings.Contains(string(md), line) || !strings.Contains(string(md), tuned) {
			t.Errorf("report.md lacks %q or %q", line, tuned)
		}
		if !strings.Contains(string(page), "<td>"+tuned+"</td>") {
			t.Errorf("report.html lacks %q", tuned)
		}
	}
	for _, s := range []string{"## Corrected success rates", "### D4 reliability", "differ in agent mix"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("report.md lacks %q", s)
		}
	}
	if !strings.Contains(string(page), `id="corrected-rates"`) || !strings.Contains(string(page), "differ in agent mix") {
		t.Error("report.html lacks the corrected rates section or its warning")
	}
}
