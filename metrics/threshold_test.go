package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

func TestThreshold(t *testing.T) {
	d := simLake(t)
	jc := queries.JudgeCondition{Judge: "sim:rm-1", Condition: "E2-lastk"}
	r, err := Threshold(t.Context(), d.s, ThresholdOptions{Judge: jc, TargetFPR: 0.1, Folds: 4, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if r.TP+r.FP+r.TN+r.FN != r.NEpisodes || r.TP+r.FN != r.NPos || r.FP+r.TN != r.NNeg {
		t.Errorf("held-out counts %d/%d/%d/%d do not add up to %d episodes (%d pos)", r.TP, r.FP, r.TN, r.FN, r.NEpisodes, r.NPos)
	}
	if len(r.FoldThresholds) != 4 || r.NTasks != 16 {
		t.Errorf("folds %v, tasks %d; want 4 folds over 16 tasks", r.FoldThresholds, r.NTasks)
	}
	// The simulated reward model separates classes (TPR 0.85 at FPR well
	// below 0.5 at score 0.5): the AUC is clearly above chance.
	if !(r.AUC.Value > 0.6 && r.AUC.Value <= 1) || !(r.AUC.Boot[0] <= r.AUC.Value && r.AUC.Value <= r.AUC.Boot[1]) {
		t.Errorf("auc %v boot %v", r.AUC.Value, r.AUC.Boot)
	}
	for name, m := range map[string]Metric{"fpr": r.HeldOutFPR, "tpr": r.HeldOutTPR} {
		if math.IsNaN(m.Value) || !(m.Wilson[0] <= m.Value && m.Value <= m.Wilson[1]) || math.IsNaN(m.Boot[0]) {
			t.Errorf("held-out %s = %+v", name, m)
		}
	}
	again, err := Threshold(t.Context(), d.s, ThresholdOptions{Judge: jc, TargetFPR: 0.1, Folds: 4, Resamples: 200})
	if err != nil || again.Threshold != r.Threshold || again.HeldOutFPR != r.HeldOutFPR {
		t.Errorf("not reproducible: %v %v vs %v", err, again.Threshold, r.Threshold)
	}
	if _, err := Threshold(t.Context(), d.s, ThresholdOptions{Judge: jc, TargetFPR: 1.5}); !errors.Is(err, ErrBadOption) {
		t.Errorf("fpr target 1.5: err = %v, want ErrBadOption", err)
	}
	if _, err := Threshold(t.Context(), d.s, ThresholdOptions{Judge: queries.JudgeCondition{Judge: "nope", Condition: "E2-lastk"}, TargetFPR: 0.1}); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown judge: err = %v, want ErrUnknown", err)
	}
}

func TestPlan(t *testing.T) {
	// Seed §4.6: at FPR 0.2, about ±0.11 with 50 negatives and ±0.055 with 200.
	p, err := PlanNegatives(0.2, 0.055, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Negatives < 190 || p.Negatives > 215 {
		t.Errorf("negatives for ±0.055 at 0.2 = %d, want about 200", p.Negatives)
	}
	if _, err := PlanNegatives(1.2, 0.05, 0); !errors.Is(err, ErrBadOption) {
		t.Errorf("fpr 1.2: err = %v, want ErrBadOption", err)
	}
	small, err := PlanPower(PowerOptions{FPRA: 0.25, FPRB: 0.15, N: 100, Sims: 500})
	if err != nil {
		t.Fatal(err)
	}
	big, err := PlanPower(PowerOptions{FPRA: 0.25, FPRB: 0.15, N: 400, Sims: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !(small.Power < big.Power) || math.Abs(big.Power-big.ExactPower) > 0.06 {
		t.Errorf("power n=100 %v, n=400 %v (exact %v)", small.Power, big.Power, big.ExactPower)
	}
	at, err := PlanPower(PowerOptions{FPRA: 0.25, FPRB: 0.15, N: small.NFor80, Sims: 100})
	if err != nil {
		t.Fatal(err)
	}
	below, err := PlanPower(PowerOptions{FPRA: 0.25, FPRB: 0.15, N: small.NFor80 - 1, Sims: 100})
	if err != nil {
		t.Fatal(err)
	}
	if at.ExactPower < 0.8 || below.ExactPower >= 0.8 {
		t.Errorf("n for 80%% power = %d: exact power %v there, %v one below", small.NFor80, at.ExactPower, below.ExactPower)
	}
	if _, err := PlanPower(PowerOptions{FPRA: 0.25, FPRB: 0.15, N: 100, Discordance: 0.01}); !errors.Is(err, ErrBadOption) {
		t.Errorf("impossible discordance: err = %v, want ErrBadOption", err)
	}
}

// aucPairs.weighted on task weights equals stats.ROCAUC on the sample with
// each task's episodes repeated that many times (the cluster bootstrap's
// draw), and exactly (==) a plain loop over every positive–negative episode
// pair weighted by its tasks' draws: the report.json of a bench lake stays
// byte-identical to the per-episode pass it replaced.
func TestWeightedAUCIsROCAUCOfTheResample(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	items := make([]stats.Scored, 300)
	index := map[string]int{}
	for i := range items {
		task := fmt.Sprintf("t%02d", rng.IntN(20))
		if _, ok := index[task]; !ok {
			index[task] = len(index)
		}
		items[i] = stats.Scored{Task: task, Score: float64(rng.IntN(15)) / 14, Positive: rng.IntN(3) > 0} // many ties
	}
	pairs := newAUCPairs(items, index)
	for rep := 0; rep < 50; rep++ {
		w := make([]float64, len(index))
		var sc []float64
		var ps []bool
		for k := 0; k < len(index); k++ {
			w[rng.IntN(len(index))]++
		}
		if rep == 0 {
			clear(w)
			w[index[items[0].Task]] = 3 // one task: may lack a class
		}
		for _, it := range items {
			for c := 0; c < int(w[index[it.Task]]); c++ {
				sc = append(sc, it.Score)
				ps = append(ps, it.Positive)
			}
		}
		var num, pos, neg float64
		for _, p := range items {
			wp := w[index[p.Task]]
			if !p.Positive {
				neg += wp
				continue
			}
			pos += wp
			for _, q := range items {
				switch wq := w[index[q.Task]]; {
				case q.Positive:
				case p.Score > q.Score:
					num += wp * wq
				case p.Score == q.Score:
					num += wp * wq / 2
				}
			}
		}
		exact := num / (pos * neg)
		got := pairs.weighted(w, nil)
		if math.IsNaN(exact) != math.IsNaN(got) || !math.IsNaN(got) && got != exact {
			t.Fatalf("resample %d: weighted %v, pairwise %v", rep, got, exact)
		}
		if want := stats.ROCAUC(sc, ps); !(math.Abs(got-want) < 1e-12 || (math.IsNaN(got) && math.IsNaN(want))) {
			t.Fatalf("resample %d: weighted %v, ROCAUC %v", rep, got, want)
		}
	}
}

func BenchmarkWeightedAUC(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	items := make([]stats.Scored, 27000)
	index := map[string]int{}
	for i := range items {
		task := fmt.Sprintf("t%03d", rng.IntN(150))
		if _, ok := index[task]; !ok {
			index[task] = len(index)
		}
		items[i] = stats.Scored{Task: task, Score: float64(rng.IntN(10000)) / 9999, Positive: rng.IntN(3) > 0}
	}
	pairs := newAUCPairs(items, index)
	w := make([]float64, len(index))
	for k := 0; k < len(index); k++ {
		w[rng.IntN(len(index))]++
	}
	drawn := make([]int, 0, len(w))
	for b.Loop() {
		pairs.weighted(w, drawn)
	}
}

// newAUCPairs counts the pairs of items, whose tasks index numbers 0..n-1.
func newAUCPairs(items []stats.Scored, index map[string]int) *aucPairs {
	taskOf := make([]int, len(items))
	for i, it := range items {
		taskOf[i] = index[it.Task]
	}
	return newAUCPairsOf(items, taskOf, len(index))
}
