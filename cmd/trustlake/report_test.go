package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/nightly"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/sim"
)

// reportLake is a lake with every kind of data a report shows: simulated
// episodes and verdicts (three VLM-style judges and a reward model, four
// conditions), simulated τ-bench results for the Trust Layer.
type reportLake struct {
	lake, out string
	doc       report.Document
	code      int
	stderr    string
}

// trustlakeExit runs the CLI in-process and returns its exit code, stdout
// and stderr.
func trustlakeExit(t *testing.T, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"trustlake"}, args...), nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// buildReportLake makes the lake and runs the report over it.
func buildReportLake(t *testing.T) *reportLake {
	t.Helper()
	dir := t.TempDir()
	r := &reportLake{}
	{
		r.lake, r.out = filepath.Join(dir, "lake"), filepath.Join(dir, "report")
		data := filepath.Join(dir, "data")
		must := func(args ...string) {
			if code, _, stderr := trustlakeExit(t, append([]string{"--lake", r.lake}, args...)...); code != 0 {
				t.Fatalf("trustlake %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
			}
		}
		must("gen", "--out", data, "--tasks", "30", "--episodes-per-task", "2")
		must("ingest", "episodes", filepath.Join(data, "episodes"))
		verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
		must(append([]string{"ingest", "verdicts"}, verdicts...)...)
		f, err := os.Create(filepath.Join(dir, "tau.json"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sim.WriteTauBench(f, sim.ResultsOptions{Results: 300, Trials: 5, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		must("ingest", "tau-bench", "--agent", "sim:agent", f.Name())
		r.code, _, r.stderr = trustlakeExit(t, "--lake", r.lake, "report", "--out", r.out, "--threshold", "0.5",
			"--checklist", "sim:vlm-a@E3-full", "--fpr-target", "0.2", "--fail-on", `fpr{judge="sim:vlm-a"}.wilson_hi > 0.99`)
		b, err := os.ReadFile(filepath.Join(r.out, "report.json"))
		if err != nil {
			t.Fatalf("report.json: %v (exit %d: %s)", err, r.code, r.stderr)
		}
		if err := json.Unmarshal(b, &r.doc); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// same compares two numbers, NaN equal to NaN (both undefined).
func same(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

func checkMetric(t *testing.T, what string, got report.Estimate, want metrics.Metric) {
	t.Helper()
	w := [2]float64{math.NaN(), math.NaN()}
	if want.HasWilson {
		w = want.Wilson
	}
	pairs := [][2]float64{{float64(got.Value), want.Value}, {float64(got.Wilson[0]), w[0]}, {float64(got.Wilson[1]), w[1]},
		{float64(got.Boot[0]), want.Boot[0]}, {float64(got.Boot[1]), want.Boot[1]}}
	for i, p := range pairs {
		if !same(p[0], p[1]) {
			t.Errorf("%s: field %d: report %v, CLI %v", what, i, p[0], p[1])
		}
	}
}

func cliJSON(t *testing.T, lakeDir string, v any, args ...string) {
	t.Helper()
	code, stdout, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir}, args...)...)
	if code != 0 && code != exitCheckFailed {
		t.Fatalf("trustlake %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("trustlake %s: %v\n%s", strings.Join(args, " "), err, stdout)
	}
}

// TestReportFiguresMatchCLI checks every figure of report.json against
// what the commands metrics, compare, threshold, checklist, lake check and
// trust print as JSON on the same lake.
func TestReportFiguresMatchCLI(t *testing.T) {
	r := buildReportLake(t)
	d := &r.doc
	if r.code != exitCheckFailed {
		t.Errorf("report exit %d, want 4 (the checklist fails)\n%s", r.code, r.stderr)
	}
	var mr metrics.Report
	cliJSON(t, r.lake, &mr, "metrics", "--json", "--by", "hardness", "--by", "category", "--by", "source", "--threshold", "0.5")
	judges, strata := 0, 0
	for _, row := range mr.Rows {
		dim, v := row.StratumKey()
		name := fmt.Sprintf("%s@%s %s=%s", row.Judge, row.Condition, dim, v)
		switch {
		case dim == "":
			judges++
			i := indexOf(d.Judges, func(j report.JudgeRow) bool { return j.Judge == row.Judge && j.Condition == row.Condition })
			if i < 0 {
				t.Errorf("%s: not in the report", name)
				continue
			}
			j := d.Judges[i]
			if j.TP != row.TP || j.FP != row.FP || j.TN != row.TN || j.FN != row.FN || j.NEpisodes != row.NEpisodes || j.NTasks != row.NTasks {
				t.Errorf("%s: counts %+v, CLI %+v", name, j, row)
			}
			for _, m := range []struct {
				n string
				g report.Estimate
				w metrics.Metric
			}{{"fpr", j.FPR, row.FPR}, {"fdr", j.FDR, row.FDR}, {"tpr", j.TPR, row.TPR}, {"inflation", j.Inflation, row.Inflation},
				{"kappa", j.Kappa, row.Kappa}, {"self_consistency", j.SelfConsistency, row.SelfConsistency},
				{"uncertain_rate", j.UncertainRate, row.UncertainRate}, {"parse_error_rate", j.ParseErrorRate, row.ParseErrorRate}} {
				checkMetric(t, name+" "+m.n, m.g, m.w)
			}
		case v == metrics.StratumPass || row.NNeg == 0:
		default:
			strata++
			i := indexOf(d.Strata, func(s report.StratumRow) bool {
				return s.Judge == row.Judge && s.Condition == row.Condition && s.By == dim && s.Value == v
			})
			if i < 0 {
				t.Errorf("%s: not in the report", name)
				continue
			}
			checkMetric(t, name, d.Strata[i].FPR, row.FPR)
		}
	}
	if judges != len(d.Judges) || strata != len(d.Strata) || judges == 0 || strata == 0 {
		t.Errorf("report has %d judge rows and %d strata, CLI %d and %d", len(d.Judges), len(d.Strata), judges, strata)
	}
	if len(d.ClaimSway) != 3 {
		t.Errorf("claim sway for %d judges, want 3 (sim:vlm-a, sim:vlm-b, sim:rm-1 at threshold 0.5)", len(d.ClaimSway))
	}
	for _, s := range d.ClaimSway {
		var c map[string]any
		cliJSON(t, r.lake, &c, "compare", "--claim-sway", s.Judge, "--json", "--threshold", "0.5")
		diff := c["fpr_diff"].(map[string]any)
		boot := diff["boot"].([]any)
		if s.NPairs != int(c["n_pairs"].(float64)) || s.B != int(c["b"].(float64)) || s.C != int(c["c"].(float64)) ||
			!same(float64(s.McNemarP), c["mcnemar_p"].(float64)) || !same(float64(s.Sway.Value), diff["value"].(float64)) ||
			!same(float64(s.Sway.Boot[0]), boot[0].(float64)) || !same(float64(s.Sway.Boot[1]), boot[1].(float64)) {
			t.Errorf("claim sway %s: report %+v, CLI %v", s.Judge, s, c)
		}
	}
	if len(d.RewardModels) != 4 {
		t.Errorf("%d reward-model rows, want 4 (sim:rm-1 under four conditions)", len(d.RewardModels))
	}
	for _, rm := range d.RewardModels {
		var th metrics.ThresholdReport
		cliJSON(t, r.lake, &th, "threshold", "--judge", rm.Judge, "--condition", rm.Condition, "--fpr-target", "0.2", "--json")
		if !same(float64(rm.Threshold), th.Threshold) || rm.NNeg != th.NNeg {
			t.Errorf("%s@%s: threshold %v, CLI %v", rm.Judge, rm.Condition, rm.Threshold, th.Threshold)
		}
		checkMetric(t, rm.Judge+" heldout_fpr", rm.HeldOutFPR, th.HeldOutFPR)
		checkMetric(t, rm.Judge+" heldout_tpr", rm.HeldOutTPR, th.HeldOutTPR)
		checkMetric(t, rm.Judge+" roc_auc", rm.AUC, th.AUC)
		if n := len(rm.ROC); n < 3 || n > nightly.MaxROCPoints+1 || rm.ROC[0] != (report.ROCPoint{}) || rm.ROC[n-1] != (report.ROCPoint{FPR: 1, TPR: 1}) {
			t.Errorf("%s@%s: ROC of %d points from %v to %v", rm.Judge, rm.Condition, n, rm.ROC[0], rm.ROC[n-1])
		}
	}
	var cl metrics.ChecklistReport
	cliJSON(t, r.lake, &cl, "checklist", "--judge", "sim:vlm-a", "--condition", "E3-full", "--fpr-target", "0.2", "--threshold", "0.5", "--json")
	if len(d.Checklists) != 1 || d.Checklists[0].Pass != cl.Pass || d.Checklists[0].Failed != cl.Failed || len(d.Checklists[0].Items) != len(cl.Items) {
		t.Fatalf("checklist: report %+v, CLI %+v", d.Checklists, cl)
	}
	for i, it := range cl.Items {
		if got := d.Checklists[0].Items[i]; got.Status != it.Status || got.Figure != it.Figure {
			t.Errorf("checklist item %s: report %s %q, CLI %s %q", it.ID, got.Status, got.Figure, it.Status, it.Figure)
		}
	}
	var lc struct {
		Version int64            `json:"manifest_version"`
		Files   int              `json:"files"`
		Rows    map[string]int64 `json:"rows"`
	}
	cliJSON(t, r.lake, &lc, "lake", "check", "--json")
	if d.Health.Lake.Files != lc.Files || fmt.Sprint(d.Health.Lake.Rows) != fmt.Sprint(lc.Rows) || d.Provenance.ManifestVersion != lc.Version {
		t.Errorf("lake check: report %+v (manifest %d), CLI %+v", d.Health.Lake, d.Provenance.ManifestVersion, lc)
	}
	var tr struct {
		PerAgent []struct {
			Agent          string `json:"agent"`
			RecordedPasses int    `json:"recorded_passes"`
			Removed        struct{ D1, D2, D3, D4 int }
			Trusted        int `json:"trusted"`
			TrustedRate    struct {
				Value  float64    `json:"value"`
				Wilson [2]float64 `json:"wilson"`
			} `json:"trusted_rate"`
			D4 struct {
				Rho float64 `json:"rho"`
			} `json:"d4"`
		} `json:"per_agent"`
		Dimensions  []string `json:"dimensions"`
		InfraPolicy string   `json:"infra_policy"`
		Notices     []string `json:"notices"`
		Total       struct {
			Scope struct {
				Line string `json:"line"`
			} `json:"scope"`
		} `json:"total"`
	}
	cliJSON(t, r.lake, &tr, "trust", "--json")
	if d.Trust != nil && (d.Trust.Scope == "" || d.Trust.Scope != tr.Total.Scope.Line || fmt.Sprint(d.Trust.Dimensions) != fmt.Sprint(tr.Dimensions) ||
		d.Trust.InfraPolicy != tr.InfraPolicy || fmt.Sprint(d.Trust.Notices) != fmt.Sprint(tr.Notices)) {
		t.Errorf("trust scope: report %q %v %q %v, CLI %q %v %q %v", d.Trust.Scope, d.Trust.Dimensions, d.Trust.InfraPolicy, d.Trust.Notices,
			tr.Total.Scope.Line, tr.Dimensions, tr.InfraPolicy, tr.Notices)
	}
	if d.Trust == nil || len(d.Trust.Agents) != len(tr.PerAgent) || len(tr.PerAgent) == 0 {
		t.Fatalf("trust: report %+v, CLI %+v", d.Trust, tr)
	}
	for i, a := range tr.PerAgent {
		g := d.Trust.Agents[i]
		if g.Agent != a.Agent || g.RecordedPasses != a.RecordedPasses || g.Trusted != a.Trusted || g.RemovedD1 != a.Removed.D1 ||
			g.RemovedD2 != a.Removed.D2 || g.RemovedD3 != a.Removed.D3 || g.RemovedD4 != a.Removed.D4 ||
			!same(float64(g.TrustedRate.Value), a.TrustedRate.Value) || !same(float64(g.TrustedRate.Wilson[0]), a.TrustedRate.Wilson[0]) ||
			!same(float64(g.TrustedRate.Wilson[1]), a.TrustedRate.Wilson[1]) || !same(float64(g.D4.Rho), a.D4.Rho) {
			t.Errorf("trust %s: report %+v, CLI %+v", a.Agent, g, a)
		}
	}
	f := d.Trust.Funnel
	if len(f) != 5 || f[0].Passes != d.Trust.Total.RecordedPasses || f[4].Passes != d.Trust.Total.Trusted {
		t.Errorf("funnel %+v: want recorded passes first and trusted last", f)
	}
	for i := 1; i < len(f); i++ {
		if f[i].Passes > f[i-1].Passes {
			t.Errorf("funnel grows at %s: %+v", f[i].Name, f)
		}
	}
}

func indexOf[T any](s []T, f func(T) bool) int {
	for i, v := range s {
		if f(v) {
			return i
		}
	}
	return -1
}
