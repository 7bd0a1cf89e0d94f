package stats

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// TestTauBenchAirline checks pass^k, the variance decomposition and Wilson on
// real data (50 tasks × 4 trials) against statsmodels' numbers in
// reference.json, and that the task-clustered bootstrap is wider than the
// episode-level Wilson interval when trials of a task are correlated.
func TestTauBenchAirline(t *testing.T) {
	// τ-bench's gpt-4o airline trajectories: shared read-only third-party
	// data (its README is beside it), never copied into the repository.
	tauBenchPath := testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
	b, err := os.ReadFile(tauBenchPath)
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		TaskID int     `json:"task_id"`
		Reward float64 `json:"reward"`
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatalf("decode %s: %v", tauBenchPath, err)
	}
	byTask := map[int][]float64{}
	for _, r := range recs {
		byTask[r.TaskID] = append(byTask[r.TaskID], r.Reward)
	}
	taskIDs := slices.Sorted(func(yield func(int) bool) {
		for id := range byTask {
			if !yield(id) {
				return
			}
		}
	})
	var ids []string
	var groups [][]float64
	var c, n []int
	var succ, trials []float64
	total := 0
	for _, id := range taskIDs {
		g := byTask[id]
		k := 0
		for _, y := range g {
			if y == 1 {
				k++
			}
		}
		ids = append(ids, strconv.Itoa(id))
		groups = append(groups, g)
		c, n = append(c, k), append(n, len(g))
		succ, trials = append(succ, float64(k)), append(trials, float64(len(g)))
		total += k
	}
	want := loadReference(t).TauBench
	if want.Records == 0 {
		t.Fatal("reference.json lacks tau_bench_airline; rerun testdata/reference.py with the data present")
	}
	if len(recs) != want.Records || len(ids) != want.Tasks || total != want.Successes {
		t.Fatalf("read %d records, %d tasks, %d successes; reference has %d, %d, %d", len(recs), len(ids), total, want.Records, want.Tasks, want.Successes)
	}
	for k := 1; k <= 4; k++ {
		if got, w := PassHatK(c, n, k), want.PassHatK[strconv.Itoa(k)]; !near(got, w, 1e-12) {
			t.Errorf("pass^%d = %v, want %v", k, got, w)
		}
	}
	between, within, rho := OneWayVariance(groups)
	if !near(between, want.Between, 1e-12) || !near(within, want.Within, 1e-12) || !near(rho, want.Rho, 1e-12) {
		t.Errorf("OneWayVariance = %v, %v, %v; want %v, %v, %v", between, within, rho, want.Between, want.Within, want.Rho)
	}
	lo, hi := Wilson(total, len(recs), 0.05)
	if !near(lo, want.WilsonLo, 1e-12) || !near(hi, want.WilsonHi, 1e-12) {
		t.Errorf("Wilson = [%v, %v], want [%v, %v]", lo, hi, want.WilsonLo, want.WilsonHi)
	}
	iv, err := BootstrapRatios(ids, []RatioStat{{A: Ratio{Num: succ, Den: trials}}}, BootstrapOptions{Seed: 20261010})
	if err != nil {
		t.Fatal(err)
	}
	bw, ww := iv[0].Hi-iv[0].Lo, hi-lo
	t.Logf("success rate %.3f: Wilson [%.3f, %.3f], task bootstrap [%.3f, %.3f], ρ = %.3f", iv[0].Estimate, lo, hi, iv[0].Lo, iv[0].Hi, rho)
	// Design effect 1+(4−1)ρ ≈ 2.2, so the clustered interval should be
	// about √2.2 ≈ 1.5 times as wide.
	if ratio := bw / ww; ratio < 1.25 || ratio > 1.8 {
		t.Errorf("bootstrap width / Wilson width = %v, want about 1.5", ratio)
	}
}
