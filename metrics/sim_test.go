package metrics

import (
	"bufio"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/sim"
	"github.com/trustlake/trustlake/stats"
)

// simData is a generated data set: its folder and a session over a lake
// holding it.
type simData struct {
	dir string
	s   *queries.Session
}

// simLake generates a small simulated data set (sim.Generate, default
// judges including a reward model, four conditions, three runs) and
// ingests it.
func simLake(t *testing.T) simData {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	if _, err := sim.Generate(ctx, dir, sim.Options{Tasks: 16, EpisodesPerTask: 3, Episodes: sim.EpisodeMinimal, SingleVerdictsFile: true}); err != nil {
		t.Fatal(err)
	}
	dst, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Episodes(ctx, dst, []string{filepath.Join(dir, "episodes")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Verdicts(ctx, dst, []string{filepath.Join(dir, "verdicts", "verdicts.jsonl")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return simData{dir: dir, s: openSession(t, ctx, dst)}
}

// refEpisode is an episode as read straight from the generated files.
type refEpisode struct {
	task, source, category string
	pass                   bool
}

// readSimFiles reads meta.json and gt.json of every episode folder and the
// verdict lines, without any trustlake code.
func readSimFiles(t *testing.T, dir string) (map[string]refEpisode, []map[string]any) {
	t.Helper()
	eps := map[string]refEpisode{}
	folders, _ := filepath.Glob(filepath.Join(dir, "episodes", "*"))
	for _, f := range folders {
		var meta map[string]any
		var gt struct {
			Pass     bool    `json:"pass"`
			Category *string `json:"category"`
		}
		for name, v := range map[string]any{"meta.json": &meta, "gt.json": &gt} {
			b, err := os.ReadFile(filepath.Join(f, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatal(err)
			}
		}
		e := refEpisode{task: meta["task_id"].(string), source: meta["source"].(string), pass: gt.Pass}
		if gt.Category != nil {
			e.category = *gt.Category
		}
		eps[meta["episode_id"].(string)] = e
	}
	fh, err := os.Open(filepath.Join(dir, "verdicts", "verdicts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	return eps, lines
}

// refMajority is the straightforward majority vote: count each run's
// verdict (a null verdict with a score is success when score >= thr),
// drop parse errors, and take the verdict with strictly the most votes.
func refMajority(lines []map[string]any, thr float64) map[[3]string]string {
	votes := map[[3]string]map[string]int{}
	for _, l := range lines {
		k := [3]string{l["judge"].(string), l["condition"].(string), l["episode_id"].(string)}
		if votes[k] == nil {
			votes[k] = map[string]int{}
		}
		v, _ := l["verdict"].(string)
		if l["verdict"] == nil {
			if l["score"].(float64) >= thr {
				v = "success"
			} else {
				v = "failure"
			}
		}
		votes[k][v]++
	}
	out := map[[3]string]string{}
	for k, c := range votes {
		best, bestN, tie := "uncertain", 0, false
		for _, v := range []string{"success", "failure", "uncertain"} {
			switch {
			case c[v] > bestN:
				best, bestN, tie = v, c[v], false
			case c[v] == bestN && bestN > 0:
				tie = true
			}
		}
		if tie || bestN == 0 {
			best = "uncertain"
		}
		out[k] = best
	}
	return out
}

func TestMajorityMatchesReference(t *testing.T) {
	d := simLake(t)
	eps, lines := readSimFiles(t, d.dir)
	const thr = 0.5
	want := refMajority(lines, thr)
	v := thr
	rows, err := d.s.MetricEpisodeRows(t.Context(), &v)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("%d episode verdicts from SQL, %d from the reference", len(rows), len(want))
	}
	for _, r := range rows {
		if w := want[[3]string{r.Judge, r.Condition, r.EpisodeID}]; r.Majority != w {
			t.Errorf("%s %s %s: majority %s, reference %s", r.Judge, r.Condition, r.EpisodeID, r.Majority, w)
		}
		e := eps[r.EpisodeID]
		if r.TaskID != e.task || r.Source != e.source || !r.HasGT || r.GTPass != e.pass || r.Category != e.category {
			t.Errorf("%s: joined %+v, files say %+v", r.EpisodeID, r, e)
		}
	}
	// Confusion counts per judge × condition on natural episodes.
	type cm struct{ TP, FP, TN, FN int }
	ref := map[string]*cm{}
	for k, maj := range want {
		e := eps[k[2]]
		if e.source != "natural" {
			continue
		}
		jc := k[0] + "@" + k[1]
		if ref[jc] == nil {
			ref[jc] = &cm{}
		}
		acc := maj == "success" // uncertain policy failure
		switch {
		case e.pass && acc:
			ref[jc].TP++
		case e.pass:
			ref[jc].FN++
		case acc:
			ref[jc].FP++
		default:
			ref[jc].TN++
		}
	}
	rep, err := Run(t.Context(), d.s, Options{Threshold: &v, Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*cm{}
	for _, r := range rep.Rows {
		got[r.Judge+"@"+r.Condition] = &cm{r.TP, r.FP, r.TN, r.FN}
	}
	if diff := cmp.Diff(ref, got); diff != "" {
		t.Errorf("confusion counts (-reference +metrics):\n%s", diff)
	}
	if len(got) != 12 {
		t.Errorf("%d judge × condition rows, want 12", len(got))
	}
}

func TestFleissMatchesStats(t *testing.T) {
	d := simLake(t)
	rows, err := d.s.MetricEpisodeRows(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Reference: stats.FleissKappa on the (success, failure, uncertain)
	// counts of natural episodes with ground truth, per judge × condition.
	counts := map[string][][]int{}
	for _, r := range rows {
		if r.Source == "natural" && r.HasGT && r.Unscored == 0 {
			jc := r.Judge + "@" + r.Condition
			counts[jc] = append(counts[jc], []int{r.Success, r.Failure, r.Uncertain})
		}
	}
	rep, err := Run(t.Context(), d.s, Options{Resamples: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		want := statsFleiss(counts[r.Judge+"@"+r.Condition])
		if math.Abs(r.FleissKappa.Value-want) > 1e-9 {
			t.Errorf("%s@%s: fleiss %v, stats.FleissKappa %v", r.Judge, r.Condition, r.FleissKappa.Value, want)
		}
	}
}

func TestReportProperties(t *testing.T) {
	d := simLake(t)
	v := 0.5
	opts := Options{By: []string{ByCategory, ByHardness, BySource, ByAgent}, Threshold: &v, Resamples: 400}
	rep, err := Run(t.Context(), d.s, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("intervals contain the estimate", func(t *testing.T) {
		for _, r := range rep.Rows {
			for name, m := range metricsOf(r) {
				if math.IsNaN(m.Value) {
					continue
				}
				if m.HasWilson && !(m.Wilson[0] <= m.Value+1e-12 && m.Value <= m.Wilson[1]+1e-12) {
					t.Errorf("%s@%s %v %s: wilson %v excludes %v", r.Judge, r.Condition, r.Stratum, name, m.Wilson, m.Value)
				}
				// A percentile interval need not contain the estimate in
				// general; on overall rows of 16 tasks it does here.
				if len(r.Stratum) == 0 && !math.IsNaN(m.Boot[0]) && !(m.Boot[0] <= m.Value+1e-12 && m.Value <= m.Boot[1]+1e-12) {
					t.Errorf("%s@%s %s: boot %v excludes %v", r.Judge, r.Condition, name, m.Boot, m.Value)
				}
			}
		}
	})
	t.Run("strata recombine to the overall counts", func(t *testing.T) {
		type key struct{ jc, dim string }
		sums := map[key]counts{}
		overall := map[string]counts{}
		for _, r := range rep.Rows {
			jc := r.Judge + "@" + r.Condition
			dim, val := r.StratumKey()
			c := countsOf(r)
			if dim == "" {
				overall[jc] = c
				continue
			}
			if dim == BySource && val != "natural" {
				continue
			}
			s := sums[key{jc, dim}]
			s.NEpisodes += c.NEpisodes
			s.NPos += c.NPos
			s.NNeg += c.NNeg
			s.TP += c.TP
			s.FP += c.FP
			s.TN += c.TN
			s.FN += c.FN
			s.NUncertain += c.NUncertain
			s.NRuns += c.NRuns
			s.NParseError += c.NParseError
			sums[key{jc, dim}] = s
		}
		for k, s := range sums {
			o := overall[k.jc]
			o.NTasks, s.NTasks = 0, 0
			if s != o {
				t.Errorf("%s by %s sums to %+v, overall %+v", k.jc, k.dim, s, o)
			}
		}
		if len(sums) != 12*4 {
			t.Errorf("%d (judge × condition, dim) sums, want 48", len(sums))
		}
	})
	t.Run("cell order does not matter", func(t *testing.T) {
		cells, err := d.s.MetricsCells(t.Context(), queries.MetricCellOptions{ByAgent: true, ByCategory: true, Threshold: &v})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Compute(cells, opts)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		before := slices.Clone(cells)
		b, err := Compute(cells, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cells, before) { // Run's cells are sorted in place, the caller's are not
			t.Error("Compute changed its cells")
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("shuffled cells give a different report")
		}
		if ja2, _ := json.Marshal(rep); string(ja2) != string(ja) {
			t.Errorf("Compute on the cells differs from Run")
		}
	})
	t.Run("the seed decides the intervals", func(t *testing.T) {
		other := opts
		other.Seed = 7
		rep2, err := Run(t.Context(), d.s, other)
		if err != nil {
			t.Fatal(err)
		}
		if rep2.Rows[0].FPR.Value != rep.Rows[0].FPR.Value || rep2.Rows[0].FPR.Boot == rep.Rows[0].FPR.Boot {
			t.Errorf("seed 7: fpr %v boot %v; default seed: fpr %v boot %v", rep2.Rows[0].FPR.Value, rep2.Rows[0].FPR.Boot,
				rep.Rows[0].FPR.Value, rep.Rows[0].FPR.Boot)
		}
	})
	t.Run("json has no NaN and stable names", func(t *testing.T) {
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if strings.Contains(s, "NaN") {
			t.Errorf("JSON contains NaN")
		}
		for _, name := range []string{`"params":`, `"rows":`, `"warnings":`, `"stratum":{}`, `"n_episodes":`, `"fpr":{"value":`,
			`"fdr":`, `"tpr":`, `"judge_success_rate":`, `"gt_success_rate":`, `"inflation":{"value":`, `"kappa":`, `"self_consistency":`,
			`"fleiss_kappa":`, `"uncertain_rate":`, `"parse_error_rate":`, `"stratum":{"category":"F-UNCOMMITTED"}`} {
			if !strings.Contains(s, name) {
				t.Errorf("JSON lacks %s", name)
			}
		}
		var back Report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(back)
		if string(b2) != s {
			t.Errorf("JSON does not round-trip")
		}
	})
}

// metricsOf lists a row's metrics by JSON name.
func metricsOf(r Row) map[string]Metric {
	return map[string]Metric{"fpr": r.FPR, "fdr": r.FDR, "tpr": r.TPR, "judge_success_rate": r.JudgeSuccessRate,
		"gt_success_rate": r.GTSuccessRate, "inflation": r.Inflation, "kappa": r.Kappa, "self_consistency": r.SelfConsistency,
		"fleiss_kappa": r.FleissKappa, "uncertain_rate": r.UncertainRate, "parse_error_rate": r.ParseErrorRate}
}

func statsFleiss(counts [][]int) float64 { return stats.FleissKappa(counts) }

// TestLakeCountsFromManifest: the row counts the metrics check first come
// from the session's manifest; they are what scanning the tables counts.
func TestLakeCountsFromManifest(t *testing.T) {
	d := simLake(t)
	got, err := d.s.MetricsLakeCounts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var want queries.LakeCounts
	rows, err := d.s.Query(t.Context(), "SELECT (SELECT count(*) FROM verdicts), (SELECT count(*) FROM episodes), (SELECT count(*) FROM ground_truth)")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal("no row")
	}
	if err := rows.Scan(&want.Verdicts, &want.Episodes, &want.GroundTruth); err != nil {
		t.Fatal(err)
	}
	if got != want || want.Verdicts == 0 || want.Episodes == 0 || want.GroundTruth == 0 {
		t.Fatalf("MetricsLakeCounts = %+v, scanning the tables gives %+v", got, want)
	}
}
