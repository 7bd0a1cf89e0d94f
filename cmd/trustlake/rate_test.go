package main

import (
	"bufio"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/stats"
)

// rateLakeEpisode is what the test reads of one generated episode.
type rateLakeEpisode struct {
	task, agent, source string
	hasGT, pass         bool
}

// rateLake generates a lake where only some episodes keep their ground
// truth: keep(agent, rng) decides per episode, before ingest (gt.json is
// removed from the others). It returns the lake and the episodes.
func rateLake(t *testing.T, seed uint64, keep func(agent string, rng *rand.Rand) bool) (string, string, map[string]rateLakeEpisode) {
	t.Helper()
	dir := t.TempDir()
	lakeDir, data := filepath.Join(dir, "lake"), filepath.Join(dir, "data")
	if code, _, stderr := trustlakeExit(t, "gen", "--out", data, "--tasks", "60", "--episodes-per-task", "3", "--runs", "3"); code != 0 {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	rng := rand.New(rand.NewPCG(seed, 26))
	eps := map[string]rateLakeEpisode{}
	dirs, _ := filepath.Glob(filepath.Join(data, "episodes", "*"))
	sort.Strings(dirs)
	for _, d := range dirs {
		var meta struct {
			TaskID string `json:"task_id"`
			Source string
			Agent  struct{ Name string }
		}
		var gt struct{ Pass bool }
		readJSONFile(t, filepath.Join(d, "meta.json"), &meta)
		readJSONFile(t, filepath.Join(d, "gt.json"), &gt)
		e := rateLakeEpisode{task: meta.TaskID, agent: meta.Agent.Name, source: meta.Source, pass: gt.Pass}
		if e.hasGT = keep(e.agent, rng); !e.hasGT {
			if err := os.Remove(filepath.Join(d, "gt.json")); err != nil {
				t.Fatal(err)
			}
		}
		eps[filepath.Base(d)] = e
	}
	verdicts, _ := filepath.Glob(filepath.Join(data, "verdicts", "*.jsonl"))
	for _, args := range [][]string{{"ingest", "episodes", filepath.Join(data, "episodes")}, append([]string{"ingest", "verdicts"}, verdicts...)} {
		if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	return lakeDir, data, eps
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// predictions reads a judge's verdict file and returns f per episode: the
// majority verdict (success 1; failure, uncertain or a tie 0), or with
// score the mean run score.
func predictions(t *testing.T, path string, score bool) map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts, scores := map[string]map[string]int{}, map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v struct {
			EpisodeID string `json:"episode_id"`
			Verdict   *string
			Score     *float64
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if counts[v.EpisodeID] == nil {
			counts[v.EpisodeID] = map[string]int{}
		}
		if v.Verdict != nil {
			counts[v.EpisodeID][*v.Verdict]++
		}
		if v.Score != nil {
			scores[v.EpisodeID] = append(scores[v.EpisodeID], *v.Score)
		}
	}
	out := map[string]float64{}
	for id, c := range counts {
		if score {
			sum := 0.0
			for _, s := range scores[id] {
				sum += s
			}
			out[id] = sum / float64(len(scores[id]))
			continue
		}
		out[id] = 0
		if c["success"] > c["failure"] && c["success"] > c["uncertain"] {
			out[id] = 1
		}
	}
	return out
}

type rateJSON struct {
	Params struct {
		Prediction string
		Alpha      float64
		Bootstrap  int
		Seed       uint64
	}
	Assumption string
	Rows       []struct {
		Agent, Judge, Condition string
		NLabelled               int                  `json:"n_labelled"`
		NUnlabelled             int                  `json:"n_unlabelled"`
		JudgeOnly               rateEstJSON          `json:"judge_only"`
		GTOnly                  rateEstJSON          `json:"gt_only"`
		PPI                     rateEstJSON          `json:"ppi"`
		PPITuned                rateEstJSON          `json:"ppi_tuned"`
		EffectiveLabels         float64              `json:"effective_labels"`
		AgentMix                *struct{ P float64 } `json:"agent_mix"`
	}
	Warnings []string
}

type rateEstJSON struct {
	Value  float64
	CI     []float64
	Boot   []float64
	Lambda *float64
}

// TestRateOnPartialGroundTruth runs trustlake rate on a generated lake
// where a random 30% of the episodes keep their ground truth, and checks
// every figure against the same estimators on the predictions and ground
// truth read from the generated files (not the lake): the lake path (run
// counts, majority, per-task SQL sums) must give the same sums.
func TestRateOnPartialGroundTruth(t *testing.T) {
	lakeDir, data, eps := rateLake(t, 1, func(_ string, rng *rand.Rand) bool { return rng.Float64() < 0.3 })
	for _, tc := range []struct {
		judge, file string
		score       bool
	}{{"sim:vlm-a", "sim_vlm-a__E2-lastk.jsonl", false}, {"sim:rm-1", "sim_rm-1__E2-lastk.jsonl", true}} {
		args := []string{"rate", "--json", "--judge", tc.judge, "--condition", "E2-lastk", "--bootstrap", "500"}
		if tc.score {
			args = append(args, "--score")
		}
		var got rateJSON
		cliJSON(t, lakeDir, &got, args...)
		if len(got.Rows) != 1 {
			t.Fatalf("%s: %d rows, want 1 (agents pooled)", tc.judge, len(got.Rows))
		}
		r := got.Rows[0]
		if !strings.Contains(got.Assumption, "random subset") {
			t.Errorf("assumption not stated: %q", got.Assumption)
		}
		if want := map[bool]string{false: "verdict", true: "score"}[tc.score]; got.Params.Prediction != want {
			t.Errorf("%s: prediction %q, want %q", tc.judge, got.Params.Prediction, want)
		}
		// The same estimators on sums made from the files.
		f := predictions(t, filepath.Join(data, "verdicts", tc.file), tc.score)
		byTask := map[string]*stats.PPISums{}
		var total stats.PPISums
		for id, e := range eps {
			if e.source != "natural" {
				continue
			}
			s := byTask[e.task]
			if s == nil {
				s = &stats.PPISums{}
				byTask[e.task] = s
			}
			one := stats.PPISums{NU: 1, FU: f[id], FFU: f[id] * f[id]}
			if e.hasGT {
				y := map[bool]float64{true: 1}[e.pass]
				one = stats.PPISums{N: 1, Y: y, YY: y, F: f[id], FF: f[id] * f[id], YF: y * f[id]}
			}
			s.AddScaled(one, 1)
			total.AddScaled(one, 1)
		}
		if r.NLabelled != int(total.N) || r.NUnlabelled != int(total.NU) {
			t.Errorf("%s: labelled %d unlabelled %d, files %v %v", tc.judge, r.NLabelled, r.NUnlabelled, total.N, total.NU)
		}
		if total.N < 50 || total.NU < 150 {
			t.Fatalf("too few episodes to test: %+v", total)
		}
		const tol = 1e-9
		same := func(what string, got rateEstJSON, want stats.PPIEstimate) {
			t.Helper()
			if math.Abs(got.Value-want.Value) > tol || len(got.CI) != 2 || math.Abs(got.CI[0]-want.Lo) > tol || math.Abs(got.CI[1]-want.Hi) > tol {
				t.Errorf("%s %s: got %v %v, want %v [%v, %v]", tc.judge, what, got.Value, got.CI, want.Value, want.Lo, want.Hi)
			}
			if len(got.Boot) != 2 || !(got.Boot[0] < got.Value && got.Value < got.Boot[1]) {
				t.Errorf("%s %s: bootstrap interval %v does not hold the estimate %v", tc.judge, what, got.Boot, got.Value)
			}
		}
		a := got.Params.Alpha
		same("judge_only", r.JudgeOnly, stats.ClassicalMean(total.N+total.NU, total.F+total.FU, total.FF+total.FFU, a))
		same("gt_only", r.GTOnly, stats.ClassicalMean(total.N, total.Y, total.YY, a))
		same("ppi", r.PPI, stats.PPIMean(total, 1, a))
		tuned := stats.PPIMeanTuned(total, a)
		same("ppi_tuned", r.PPITuned, tuned)
		if r.PPITuned.Lambda == nil || math.Abs(*r.PPITuned.Lambda-tuned.Lambda) > tol || r.PPI.Lambda != nil {
			t.Errorf("%s: lambda %v, want %v on ppi_tuned only", tc.judge, r.PPITuned.Lambda, tuned.Lambda)
		}
		// A judge that agrees with the ground truth makes the tuned
		// estimate worth more labels than were collected, and narrower.
		if !(r.EffectiveLabels > float64(r.NLabelled)) || !(r.PPITuned.CI[1]-r.PPITuned.CI[0] < r.GTOnly.CI[1]-r.GTOnly.CI[0]) {
			t.Errorf("%s: effective labels %v for %d labelled; tuned width %v vs gt-only %v", tc.judge, r.EffectiveLabels, r.NLabelled,
				r.PPITuned.CI[1]-r.PPITuned.CI[0], r.GTOnly.CI[1]-r.GTOnly.CI[0])
		}
		// The bootstrap resamples tasks.
		var ids []string
		var cells []stats.PPISums
		for task, s := range byTask {
			ids, cells = append(ids, task), append(cells, *s)
		}
		boot, err := stats.PPIBootstrap(ids, cells, stats.BootstrapOptions{Resamples: 500, Alpha: a, Seed: got.Params.Seed})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.PPITuned.Boot[0]-boot.Tuned.Lo) > tol || math.Abs(r.PPITuned.Boot[1]-boot.Tuned.Hi) > tol {
			t.Errorf("%s: tuned bootstrap %v, want [%v, %v]", tc.judge, r.PPITuned.Boot, boot.Tuned.Lo, boot.Tuned.Hi)
		}
		for _, w := range got.Warnings {
			if strings.Contains(w, "mix") {
				t.Errorf("%s: mix warning on a random subset: %s", tc.judge, w)
			}
		}
	}
	// plan --labels measures the judge's agreement on the labelled
	// episodes as metrics does (TPR, FPR, ground-truth rate).
	var metricsOut struct {
		Rows []map[string]json.RawMessage
	}
	cliJSON(t, lakeDir, &metricsOut, "metrics", "--json", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--bootstrap", "10")
	value := func(raw json.RawMessage) float64 {
		var v struct{ Value float64 }
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return v.Value
	}
	overall := metricsOut.Rows[0]
	var plan struct {
		Rate, TPR, FPR float64
		Episodes       int
		Tuned          *int `json:"labels_ppi_tuned"`
		Classical      *int `json:"labels_gt_only"`
	}
	cliJSON(t, lakeDir, &plan, "plan", "--labels", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--half-width", "0.1", "--json")
	if math.Abs(plan.Rate-value(overall["gt_success_rate"])) > 1e-12 || math.Abs(plan.TPR-value(overall["tpr"])) > 1e-12 ||
		math.Abs(plan.FPR-value(overall["fpr"])) > 1e-12 {
		t.Errorf("plan --labels measured rate %v TPR %v FPR %v; metrics %s %s %s", plan.Rate, plan.TPR, plan.FPR,
			overall["gt_success_rate"], overall["tpr"], overall["fpr"])
	}
	if plan.Tuned == nil || plan.Classical == nil || *plan.Tuned >= *plan.Classical || plan.Episodes == 0 {
		t.Errorf("plan --labels: %+v", plan)
	}
	// --by agent: one row per agent, whose counts add up to the pooled row.
	var by rateJSON
	cliJSON(t, lakeDir, &by, "rate", "--json", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--by", "agent", "--bootstrap", "200")
	if len(by.Rows) != 2 || by.Rows[0].Agent != "sim:agent-strong" || by.Rows[0].AgentMix != nil {
		t.Errorf("--by agent rows: %+v", by.Rows)
	}
}

// TestRateWarnsOnBiasedGroundTruth labels the strong agent's episodes far
// more often than the weak one's: the pooled row must warn about the agent
// mix (the ground truth is not a random subset), on stderr in text mode.
func TestRateWarnsOnBiasedGroundTruth(t *testing.T) {
	lakeDir, _, _ := rateLake(t, 2, func(agent string, rng *rand.Rand) bool {
		if agent == "sim:agent-strong" {
			return rng.Float64() < 0.6
		}
		return rng.Float64() < 0.1
	})
	code, stdout, stderr := trustlakeExit(t, "--lake", lakeDir, "rate", "--judge", "sim:vlm-a", "--condition", "E2-lastk", "--bootstrap", "200")
	if code != 0 {
		t.Fatalf("rate: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "differ in agent mix") || !strings.Contains(stdout, "assumption: ") || !strings.Contains(stdout, "PPI++") {
		t.Errorf("no agent-mix warning or assumption:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	// Usage errors: both --score and --threshold, an unknown judge.
	for _, args := range [][]string{{"--score", "--threshold", "0.5"}, {"--judge", "nobody"}, {"--by", "task"}, {"--lambda", "2"}} {
		if code, _, stderr := trustlakeExit(t, append([]string{"--lake", lakeDir, "rate"}, args...)...); code != 2 {
			t.Errorf("rate %v: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}
