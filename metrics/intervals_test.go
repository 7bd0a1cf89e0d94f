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
// TestBootstrapRowsExact: the bootstrap of many rows at once gives, bit
// for bit, the intervals of evaluating each row on its own, every column
// summed by stats.SumDot in task order over the draws of
// stats.ClusterBootstrap. The rows have wide and narrow counts, missing
// tasks, a float column (Fleiss' P̄), a column with huge counts, an
// FPR-only row, a row equal to another and one with another's tasks.
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
				tt.runs = 1 << 50 // huge counts
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
				s[j.use[c]] = stats.SumDot(wk, col)
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
	// alpha 0.05: quantiles near the ends; 0.8: near the middle.
	for _, alpha := range []float64{0.05, 0.8} {
		for _, workers := range []int{1, 3} {
			if err := bootstrapRows(jobs, ids, stats.BootstrapOptions{Resamples: R, Seed: 5, Alpha: alpha, Workers: workers}); err != nil {
				t.Fatal(err)
			}
			for k, j := range jobs {
				for m, target := range rowMetrics(j.row) {
					w := [2]float64{math.NaN(), math.NaN()}
					if slices.Contains(j.metrics, m) {
						iv := stats.Percentiles(slices.Clone(want[k][m]), alpha)
						w = [2]float64{iv.Lo, iv.Hi}
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
