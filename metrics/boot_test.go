package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// TestBootstrapMatchesStats checks the one-pass bootstrap against
// stats.BootstrapRatios (ratio metrics) and stats.ClusterBootstrap with
// stats.CohenKappa (κ) on the same per-task counts: same draws, same
// percentiles.
func TestBootstrapMatchesStats(t *testing.T) {
	d := simLake(t)
	cells, err := d.s.MetricsCells(t.Context(), queries.MetricCellOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Judges: []string{"sim:vlm-a"}, Conditions: []string{"E2-lastk"}, Resamples: 500, Seed: 99}
	rep, err := Compute(cells, opts)
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	// Per-task FP, TN, TP, FN of natural episodes, by hand from the cells.
	var ids []string
	per := map[string]*[4]int{}
	for _, c := range cells {
		if c.Judge != "sim:vlm-a" || c.Condition != "E2-lastk" || c.Source != "natural" || !c.HasGT {
			continue
		}
		if per[c.TaskID] == nil {
			per[c.TaskID] = &[4]int{}
			ids = append(ids, c.TaskID)
		}
		acc, rej := c.MajSuccess, c.MajFailure+c.MajUncertain
		if c.GTPass {
			per[c.TaskID][2] += acc
			per[c.TaskID][3] += rej
		} else {
			per[c.TaskID][0] += acc
			per[c.TaskID][1] += rej
		}
	}
	// rep.Params.Tasks counts tasks over all sources; use the same ids.
	if len(ids) != rep.Params.Tasks {
		t.Skipf("natural episodes cover %d of %d tasks", len(ids), rep.Params.Tasks)
	}
	num, den := make([]float64, len(ids)), make([]float64, len(ids))
	for i, id := range ids {
		num[i], den[i] = float64(per[id][0]), float64(per[id][0]+per[id][1])
	}
	bopts := stats.BootstrapOptions{Resamples: 500, Seed: 99, Alpha: 0.05}
	ivs, err := stats.BootstrapRatios(ids, []stats.RatioStat{{A: stats.Ratio{Num: num, Den: den}}}, bopts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := row.FPR.Boot, [2]float64{ivs[0].Lo, ivs[0].Hi}; math.Abs(got[0]-want[0]) > 1e-12 || math.Abs(got[1]-want[1]) > 1e-12 {
		t.Errorf("fpr boot = %v, stats.BootstrapRatios %v", got, want)
	}
	kv, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
		var fp, tn, tp, fn int
		for _, i := range idx {
			c := per[ids[i]]
			fp, tn, tp, fn = fp+c[0], tn+c[1], tp+c[2], fn+c[3]
		}
		if tp+fn == 0 || fp+tn == 0 {
			return math.NaN()
		}
		return stats.CohenKappa(tp, fp, fn, tn)
	}, bopts)
	if err != nil {
		t.Fatal(err)
	}
	if got := row.Kappa.Boot; math.Abs(got[0]-kv.Lo) > 1e-12 || math.Abs(got[1]-kv.Hi) > 1e-12 {
		t.Errorf("kappa boot = %v, stats.ClusterBootstrap [%v, %v]", got, kv.Lo, kv.Hi)
	}
}

// TestFromSumsMatchesPointEstimates: the bootstrap's formulas applied to
// the totals give the point estimates.
func TestFromSumsMatchesPointEstimates(t *testing.T) {
	s := testLake(t, handLake())
	rep, err := Run(t.Context(), s, Options{Judges: []string{"j"}, Resamples: 10})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Rows[0]
	tt := tally{tp: r.TP, fp: r.FP, tn: r.TN, fn: r.FN, eps: r.NEpisodes, unc: r.NUncertain, runs: r.NRuns, parse: r.NParseError,
		eligible: 6, agree: 2, fleissP: 3, fvSucc: 7, fvFail: 6, fvUnc: 4} // consistency sums of the hand lake
	cols := tallyCols(&tt)
	var out [bootMetrics]float64
	fromSums(&cols, &out)
	for m, target := range rowMetrics(&r) {
		if !near(out[m], target.Value) {
			t.Errorf("metric %d: from sums %v, point estimate %v", m, out[m], target.Value)
		}
	}
}

func TestPercentilesMatchSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		n    int
		kind string
	}{{1, "ties"}, {2, "ties"}, {3, "ties"}, {7, "ties"}, {40, "ties"}, {2000, "ties"}, {2000, "distinct"}, {2000, "misleading"}} {
		n := c.n
		vals := make([]float64, n)
		for i := range vals {
			switch c.kind {
			case "ties":
				vals[i] = math.Round(rng.Float64()*20) / 20
			case "distinct":
				vals[i] = rng.NormFloat64()
			case "misleading": // every 16th value (belowBar's sample) at an end: its bar lets too few through
				vals[i] = rng.Float64()
				if i%16 == 0 {
					vals[i] = float64(i%32/16)*4 - 2
				}
			}
			if i%17 == 5 && c.kind != "misleading" {
				vals[i] = math.NaN()
			}
		}
		var sorted []float64
		for _, v := range vals {
			if !math.IsNaN(v) {
				sorted = append(sorted, v)
			}
		}
		slices.Sort(sorted)
		type7 := func(p float64) float64 {
			h := p * float64(len(sorted)-1)
			i := int(math.Floor(h))
			if i >= len(sorted)-1 {
				return sorted[len(sorted)-1]
			}
			return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
		}
		for _, alpha := range []float64{0.05, 0.1, 0.5} {
			got := percentiles(slices.Clone(vals), alpha)
			want := [2]float64{type7(alpha / 2), type7(1 - alpha/2)}
			if math.Abs(got[0]-want[0]) > 1e-12 || math.Abs(got[1]-want[1]) > 1e-12 {
				t.Errorf("n=%d (%s) alpha=%v: %v, sorting gives %v", n, c.kind, alpha, got, want)
			}
		}
	}
}

// TestBootstrapRowsExact: the packed bootstrap of many rows at once gives,
// bit for bit, the intervals of evaluating each row on its own, every
// column summed by dot in task order over the draws of
// stats.ClusterBootstrap. The rows have wide and narrow counts (lanes over
// several words), missing tasks, a float column (Fleiss' P̄), a column too
// wide to pack, an FPR-only row, a row equal to another and one with
// another's tasks.
func TestBootstrapRowsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const n = 37
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%02d", i)
	}
	rows := make([]Row, 8)
	var (
		jobs []*bootJob
		accs []*rowAcc
	)
	for k := range rows {
		scale := []int{3, 50, 1000, 1 << 20, 7, 40, 0, 9}[k]
		a := &rowAcc{}
		for task := range n {
			if k == 6 {
				a = accs[1] // the same row again
				break
			}
			if k == 7 && !slices.Contains(accs[2].tasks, task) || k < 7 && k > 0 && rng.IntN(5) == 0 {
				continue // this row has no episode of the task (row 7: those of row 2)
			}
			tt := &tally{tp: rng.IntN(scale), fp: rng.IntN(scale), tn: rng.IntN(scale), fn: rng.IntN(scale), unc: rng.IntN(scale)}
			tt.eps = tt.tp + tt.fp + tt.tn + tt.fn + tt.unc
			tt.runs, tt.parse = 3*tt.eps, rng.IntN(scale)
			tt.eligible = tt.eps - rng.IntN(tt.eps+1)
			tt.agree = rng.IntN(tt.eligible + 1)
			tt.fleissP = float64(tt.agree) + rng.Float64()*float64(tt.eligible-tt.agree)
			tt.fvSucc, tt.fvFail, tt.fvUnc = rng.IntN(scale), rng.IntN(scale), rng.IntN(scale)
			if k == 4 && task == 3 {
				tt.runs = 1 << 50 // sums could pass 2^53: not packed
			}
			a.tasks, a.tallies = append(a.tasks, task), append(a.tallies, *tt)
		}
		accs = append(accs, a)
		r := &rows[k]
		for _, m := range rowMetrics(r) {
			*m = undefined(false)
			m.Value = 0.5 // defined, so bootstrapped
		}
		jobs = append(jobs, newBootJob(r, a, k == 5))
	}
	if jobs[4].lanes != nil || jobs[4].floats != nil {
		t.Fatal("lanes before packing")
	}
	if p := packLanes(jobs, n); p.words < 3 || len(jobs[4].floats) != 2 {
		t.Fatalf("packing: %d words, row 4 sums %d columns as floats; want several words and runs beside Fleiss' P̄", p.words, len(jobs[4].floats))
	}
	if _, same := dedupe(jobs); len(same) != 1 || same[jobs[6]] != jobs[1] {
		t.Fatalf("dedupe: %v, want row 6 as row 1", same)
	}
	if sets := taskSets(jobs, n); jobs[7].set < 0 || jobs[7].set != jobs[2].set || len(sets) != 4 {
		t.Fatalf("task sets: rows 2 and 7 in %d and %d of %d, want one of 4 (rows 1-4; 0 has all tasks, 5 no float column)", jobs[2].set, jobs[7].set, len(sets))
	}
	// Each row on its own: every resample's metrics, every column by dot.
	const R = 400
	want := make([][bootMetrics][]float64, len(jobs))
	for k, j := range jobs {
		first := true
		if _, err := stats.ClusterBootstrap(ids, func(idx []int) float64 {
			if first {
				first = false
				return 0
			}
			w := make([]float64, n)
			for _, i := range idx {
				w[i]++
			}
			wk := make([]float64, len(j.tasks))
			for i, task := range j.tasks {
				wk[i] = w[task]
			}
			var s [nCols]float64
			for c, col := range j.cols {
				s[j.use[c]] = dot(wk, col)
			}
			var out [bootMetrics]float64
			fromSums(&s, &out)
			for m := range out {
				want[k][m] = append(want[k][m], out[m])
			}
			return 0
		}, stats.BootstrapOptions{Resamples: R, Seed: 5, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// alpha 0.05: quantiles near the ends (orderPair's one pass); 0.8: selection.
	for _, alpha := range []float64{0.05, 0.8} {
		for _, workers := range []int{1, 3} {
			if err := bootstrapRows(jobs, ids, stats.BootstrapOptions{Resamples: R, Seed: 5, Alpha: alpha, Workers: workers}); err != nil {
				t.Fatal(err)
			}
			for k, j := range jobs {
				for m, target := range rowMetrics(j.row) {
					w := [2]float64{math.NaN(), math.NaN()}
					if slices.Contains(j.metrics, m) {
						w = percentiles(slices.Clone(want[k][m]), alpha)
					}
					if !sameBits(target.Boot[0], w[0]) || !sameBits(target.Boot[1], w[1]) {
						t.Errorf("alpha %v, %d workers: row %d metric %d: boot %v, each row on its own %v", alpha, workers, k, m, target.Boot, w)
					}
					target.Boot = [2]float64{math.NaN(), math.NaN()}
				}
			}
		}
	}
}

// sameBits reports whether a and b are the same float64, NaN equal to NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestRowAccTasks: a row's tallies stay in task order, one per task,
// whatever order its cells come in.
func TestRowAccTasks(t *testing.T) {
	var a rowAcc
	for _, task := range []int{3, 1, 3, 2, 5, 1} {
		a.addCell(task, &queries.MetricCell{Episodes: 1, MajSuccess: 1, GTPass: true, Runs: task}, UncertainFailure)
	}
	if !slices.Equal(a.tasks, []int{1, 2, 3, 5}) {
		t.Fatalf("tasks %v", a.tasks)
	}
	for k, want := range []int{2, 1, 2, 1} {
		if got := a.tallies[k]; got.eps != want || got.tp != want || got.runs != want*a.tasks[k] {
			t.Errorf("task %d: tally %+v, want %d episodes", a.tasks[k], got, want)
		}
	}
	if a.total.eps != 6 || a.total.runs != 15 {
		t.Errorf("total %+v", a.total)
	}
}

// TestBelowBar: when it answers, belowBar gives the order statistics that
// sorting gives, across ties of every size at the bar and both ends.
func TestBelowBar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	answered := 0
	for trial := range 400 {
		n := 200 + rng.IntN(1800)
		levels := 1 + trial%40 // few levels: long ties
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(1+rng.IntN(levels)) / 8
		}
		sorted := slices.Sorted(slices.Values(xs))
		k := 2 + rng.IntN(60)
		for _, top := range []bool{false, true} {
			lo, hi, ok := belowBar(slices.Clone(xs), k, top)
			if !ok {
				continue
			}
			answered++
			i := k - 2
			if top {
				i = n - k
			}
			if lo != sorted[i] || hi != sorted[i+1] {
				t.Fatalf("n=%d k=%d top=%v levels=%d: %v, %v; sorting gives %v, %v", n, k, top, levels, lo, hi, sorted[i], sorted[i+1])
			}
		}
	}
	if answered < 200 {
		t.Errorf("belowBar answered %d of 800", answered)
	}
}
