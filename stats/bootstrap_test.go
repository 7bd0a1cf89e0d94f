package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// taskData is a synthetic per-task table: false positives and negatives of
// two judges on the same negatives.
type taskData struct {
	ids             []string
	fpA, fpB, neg   []float64
	idxOf           map[string]int
	trueA, trueB    float64
	tasks, episodes int
}

// newTaskData draws tasks with a task-level random effect on the FPR, so
// episodes within a task are correlated, as in real benchmarks.
func newTaskData(seed uint64, tasks int, rateA, rateB float64) taskData {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := taskData{idxOf: map[string]int{}, trueA: rateA, trueB: rateB, tasks: tasks}
	for i := range tasks {
		id := fmt.Sprintf("task-%03d", i)
		d.idxOf[id] = i
		d.ids = append(d.ids, id)
		n := 1 + rng.IntN(8)
		shift := (rng.Float64() - 0.5) * 0.3
		var a, b float64
		for range n {
			u := rng.Float64()
			if u < rateA+shift {
				a++
			}
			if u < rateB+shift {
				b++
			}
		}
		d.fpA, d.fpB, d.neg = append(d.fpA, a), append(d.fpB, b), append(d.neg, float64(n))
		d.episodes += n
	}
	return d
}

// permuted returns d with its tasks in a random order.
func (d taskData) permuted(seed uint64) taskData {
	perm := rand.New(rand.NewPCG(seed, 2)).Perm(len(d.ids))
	p := d
	p.ids, p.fpA, p.fpB, p.neg = nil, nil, nil, nil
	for _, i := range perm {
		p.ids, p.fpA, p.fpB, p.neg = append(p.ids, d.ids[i]), append(p.fpA, d.fpA[i]), append(p.fpB, d.fpB[i]), append(p.neg, d.neg[i])
	}
	return p
}

// fprA is a ClusterBootstrap statistic: judge A's FPR over resampled tasks.
func (d taskData) fprA(idx []int) float64 {
	var fp, n float64
	for _, i := range idx {
		fp += d.fpA[i]
		n += d.neg[i]
	}
	return fp / n
}

func (d taskData) fprB(idx []int) float64 {
	var fp, n float64
	for _, i := range idx {
		fp += d.fpB[i]
		n += d.neg[i]
	}
	return fp / n
}

func TestClusterBootstrapReproducible(t *testing.T) {
	d := newTaskData(1, 60, 0.2, 0.1)
	base, err := ClusterBootstrap(d.ids, d.fprA, BootstrapOptions{Seed: 7, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !base.OK || base.Used != DefaultResamples || base.Skipped != 0 {
		t.Fatalf("base interval = %+v", base)
	}
	if !(base.Lo < base.Estimate && base.Estimate < base.Hi) {
		t.Errorf("interval [%v, %v] does not contain estimate %v", base.Lo, base.Hi, base.Estimate)
	}
	cases := []struct {
		name       string
		d          taskData
		workers    int
		gomaxprocs int
	}{
		{"same", d, 1, 0},
		{"four workers", d, 4, 0},
		{"default workers, GOMAXPROCS 1", d, 0, 1},
		{"default workers, GOMAXPROCS 4", d, 0, 4},
		{"tasks permuted", d.permuted(3), 3, 0},
		{"tasks permuted again", d.permuted(4), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.gomaxprocs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.gomaxprocs))
			}
			got, err := ClusterBootstrap(c.d.ids, c.d.fprA, BootstrapOptions{Seed: 7, Workers: c.workers})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(base, got); diff != "" {
				t.Errorf("interval differs (-base +got):\n%s", diff)
			}
		})
	}
	other, err := ClusterBootstrap(d.ids, d.fprA, BootstrapOptions{Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	if other.Lo == base.Lo && other.Hi == base.Hi {
		t.Errorf("seeds 7 and 8 gave the same interval %v–%v", base.Lo, base.Hi)
	}
}

// stat may reorder the positions it is given (ClusterBootstrap only asks
// it not to keep them): the estimate's call must not hand it the canonical
// order the resamples are drawn from, or every draw moves.
func TestClusterBootstrapStatReordersIdx(t *testing.T) {
	d := newTaskData(1, 60, 0.2, 0.1).permuted(3) // positions not in id order
	opts := BootstrapOptions{Seed: 7, Workers: 2}
	base, err := ClusterBootstrap(d.ids, d.fprA, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ClusterBootstrap(d.ids, func(idx []int) float64 {
		slices.Sort(idx)
		return d.fprA(idx)
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(base, got); diff != "" {
		t.Errorf("a stat that sorts idx changed the interval (-base +got):\n%s", diff)
	}
}

func TestClusterBootstrapDegenerate(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e"}
	fp := []float64{1, 1, 1, 1, 1}
	neg := []float64{5, 5, 5, 5, 5}
	stat := func(idx []int) float64 {
		var a, b float64
		for _, i := range idx {
			a, b = a+fp[i], b+neg[i]
		}
		return a / b
	}
	got, err := ClusterBootstrap(ids, stat, BootstrapOptions{Resamples: 500})
	if err != nil {
		t.Fatal(err)
	}
	want := Interval{Estimate: 0.2, Lo: 0.2, Hi: 0.2, OK: true, Used: 500}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("all-equal tasks (-want +got):\n%s", diff)
	}
}

func TestClusterBootstrapTooFewClusters(t *testing.T) {
	for _, ids := range [][]string{nil, {"only"}} {
		got, err := ClusterBootstrap(ids, func([]int) float64 { return 0.5 }, BootstrapOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.OK || !math.IsNaN(got.Lo) || !math.IsNaN(got.Hi) || got.Used != 0 {
			t.Errorf("ClusterBootstrap(%v) = %+v, want not OK with NaN bounds", ids, got)
		}
	}
}

func TestClusterBootstrapSkipsUndefined(t *testing.T) {
	// Only one of 10 tasks has negatives: a resample misses it with
	// probability 0.9^10 ≈ 0.35, and then the FPR is undefined.
	ids := make([]string, 10)
	fp, neg := make([]float64, 10), make([]float64, 10)
	for i := range ids {
		ids[i] = fmt.Sprint("t", i)
	}
	fp[4], neg[4] = 1, 3
	got, err := BootstrapRatios(ids, []RatioStat{{A: Ratio{Num: fp, Den: neg}}}, BootstrapOptions{Resamples: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	iv := got[0]
	if iv.Used+iv.Skipped != 1000 || iv.Skipped < 280 || iv.Skipped > 420 {
		t.Errorf("used %d, skipped %d; want about 350 of 1000 skipped", iv.Used, iv.Skipped)
	}
	if !iv.OK || iv.Lo != 1.0/3 || iv.Hi != 1.0/3 {
		t.Errorf("interval %+v, want degenerate at 1/3", iv)
	}
}

func TestBootstrapErrors(t *testing.T) {
	good := []float64{1, 2, 3}
	cases := []struct {
		name  string
		ids   []string
		stats []RatioStat
		opts  BootstrapOptions
	}{
		{"duplicate id", []string{"a", "b", "a"}, nil, BootstrapOptions{}},
		{"negative resamples", []string{"a", "b", "c"}, nil, BootstrapOptions{Resamples: -1}},
		{"alpha one", []string{"a", "b", "c"}, nil, BootstrapOptions{Alpha: 1}},
		{"short den", []string{"a", "b", "c"}, []RatioStat{{A: Ratio{Num: good, Den: good[:2]}}}, BootstrapOptions{}},
		{"short B", []string{"a", "b", "c"}, []RatioStat{{A: Ratio{Num: good, Den: good}, B: Ratio{Num: good}}}, BootstrapOptions{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := BootstrapRatios(c.ids, c.stats, c.opts); err == nil {
				t.Error("BootstrapRatios: no error")
			}
			if c.stats == nil {
				if _, err := ClusterBootstrap(c.ids, func([]int) float64 { return 0 }, c.opts); err == nil {
					t.Error("ClusterBootstrap: no error")
				}
			}
		})
	}
}

func TestBootstrapRatiosMatchesClusterBootstrap(t *testing.T) {
	d := newTaskData(2, 80, 0.25, 0.15)
	opts := BootstrapOptions{Seed: 42, Resamples: 999}
	single, err := ClusterBootstrap(d.ids, d.fprA, opts)
	if err != nil {
		t.Fatal(err)
	}
	paired, err := ClusterBootstrap(d.ids, func(idx []int) float64 { return d.fprA(idx) - d.fprB(idx) }, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := d.permuted(9)
	batch, err := BootstrapRatios(p.ids, []RatioStat{
		{A: Ratio{Num: p.fpB, Den: p.neg}},
		{A: Ratio{Num: p.fpA, Den: p.neg}},
		{A: Ratio{Num: p.fpA, Den: p.neg}, B: Ratio{Num: p.fpB, Den: p.neg}},
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Integer counts: sums are exact in any order, so the match is exact.
	if diff := cmp.Diff(single, batch[1]); diff != "" {
		t.Errorf("ratio vs ClusterBootstrap (-cluster +ratio):\n%s", diff)
	}
	if diff := cmp.Diff(paired, batch[2]); diff != "" {
		t.Errorf("paired ratio vs ClusterBootstrap of the difference (-cluster +ratio):\n%s", diff)
	}
	if !(paired.Lo < paired.Estimate && paired.Estimate < paired.Hi) {
		t.Errorf("paired interval [%v, %v] misses estimate %v", paired.Lo, paired.Hi, paired.Estimate)
	}
	// A statistic's interval does not depend on its batch companions.
	alone, err := BootstrapRatios(p.ids, []RatioStat{{A: Ratio{Num: p.fpA, Den: p.neg}}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(alone[0], batch[1]); diff != "" {
		t.Errorf("interval depends on the batch (-alone +batch):\n%s", diff)
	}
}

// TestBootstrapRatiosCoverage checks that the task-clustered interval covers
// the true FPR at roughly its nominal rate on clustered data, where an
// episode-level interval would be too narrow.
func TestBootstrapRatiosCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped in -short mode")
	}
	const datasets = 300
	covered := 0
	for s := range datasets {
		d := newTaskData(uint64(100+s), 50, 0.3, 0.3)
		iv, err := BootstrapRatios(d.ids, []RatioStat{{A: Ratio{Num: d.fpA, Den: d.neg}}}, BootstrapOptions{Seed: uint64(s), Resamples: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if iv[0].Lo <= 0.3 && 0.3 <= iv[0].Hi {
			covered++
		}
	}
	// Nominal 0.95; 300 datasets give a standard error of about 0.013.
	if rate := float64(covered) / datasets; rate < 0.90 || rate > 0.99 {
		t.Errorf("coverage %v, want about 0.95", rate)
	}
}

// percentileInterval is Percentiles' bounds and counts.
func percentileInterval(vals []float64, alpha float64) (lo, hi float64, used, skipped int) {
	iv := Percentiles(vals, alpha)
	return iv.Lo, iv.Hi, iv.Used, iv.Skipped
}

func TestPercentileInterval(t *testing.T) {
	vals := []float64{5, math.NaN(), 1, 4, 2, 3, math.NaN()}
	lo, hi, used, skipped := percentileInterval(vals, 0.5)
	// Type 7 quantiles of 1..5 at 0.25 and 0.75 are 2 and 4.
	if lo != 2 || hi != 4 || used != 5 || skipped != 2 {
		t.Errorf("percentileInterval = %v, %v, %d, %d; want 2, 4, 5, 2", lo, hi, used, skipped)
	}
	lo, hi, _, _ = percentileInterval([]float64{0, 10}, 0.1)
	if math.Abs(lo-0.5) > 1e-12 || math.Abs(hi-9.5) > 1e-12 {
		t.Errorf("interpolated = %v, %v; want 0.5, 9.5", lo, hi)
	}
}

func BenchmarkClusterBootstrap(b *testing.B) {
	d := newTaskData(5, 150, 0.2, 0.1)
	for b.Loop() {
		if _, err := ClusterBootstrap(d.ids, d.fprA, BootstrapOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBootstrapRatios is the report's hot path: 2000 resamples of 150
// tasks for 300 (judge, condition, stratum) rows, a third of them paired.
func BenchmarkBootstrapRatios(b *testing.B) {
	d := newTaskData(5, 150, 0.2, 0.1)
	var rows []RatioStat
	for i := range 300 {
		s := RatioStat{A: Ratio{Num: d.fpA, Den: d.neg}}
		if i%3 == 0 {
			s.B = Ratio{Num: d.fpB, Den: d.neg}
		}
		rows = append(rows, s)
	}
	for b.Loop() {
		if _, err := BootstrapRatios(d.ids, rows, BootstrapOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBootstrapStops: a closed Stop channel ends a bootstrap that would
// otherwise take long, with ErrStopped.
func TestBootstrapStops(t *testing.T) {
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = fmt.Sprint("t", i)
	}
	stop := make(chan struct{})
	close(stop)
	calls := 0
	_, err := ClusterBootstrap(ids, func(idx []int) float64 { calls++; return 0.5 }, BootstrapOptions{Resamples: 1_000_000, Workers: 1, Stop: stop})
	if !errors.Is(err, ErrStopped) || calls > 1 {
		t.Fatalf("err %v after %d calls, want ErrStopped after the estimate only", err, calls)
	}
	_, err = BootstrapRatios(ids, []RatioStat{{A: Ratio{Num: make([]float64, 200), Den: make([]float64, 200)}}}, BootstrapOptions{Resamples: 1_000_000, Stop: stop})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("ratios: err %v, want ErrStopped", err)
	}
}
