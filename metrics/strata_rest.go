package metrics

import (
	"math"

	"github.com/trustlake/trustlake/stats"
)

// RestTest compares a stratum's FPR with the FPR of the rest of its
// judge × condition's GT failures (the other values of the same
// dimension: the other categories, hardness classes, tasks or agents of the
// headline source; the other sources for the source dimension), with the
// cluster-robust SE over tasks that both sides share
// (stats.DiffMeansCR1). P is raw; PAdjusted is adjusted over every
// stratum test of the output (Options.Adjust) and Significant is
// PAdjusted ≤ Options.Q.
type RestTest struct {
	FPRRest     float64 `json:"fpr_rest"`
	NNegRest    int     `json:"n_neg_rest"`
	Diff        float64 `json:"diff"` // stratum FPR − rest FPR
	SE          float64 `json:"se"`
	P           float64 `json:"p"`
	PAdjusted   float64 `json:"p_adjusted"`
	Significant bool    `json:"significant"`
}

// testStrata sets the VsRest test of every stratum row with GT failures on
// both sides (accs[i] is rows[i]'s accumulator) and adjusts the family.
func testStrata(accs []*rowAcc, rows []Row, nTasks int, opts Options) error {
	type group struct{ judge, condition, dim string }
	members := map[group][]int{}
	for i, a := range accs {
		if a.key.dim != "" {
			g := group{a.key.judge, a.key.condition, a.key.dim}
			members[g] = append(members[g], i)
		}
	}
	var tested []int
	var raw []float64
	for i, a := range accs {
		if a.key.dim == "" || a.key.value == StratumPass {
			continue
		}
		sumA, nA, sumB, nB := make([]float64, nTasks), make([]float64, nTasks), make([]float64, nTasks), make([]float64, nTasks)
		for _, j := range members[group{a.key.judge, a.key.condition, a.key.dim}] {
			sum, n := sumB, nB
			if j == i {
				sum, n = sumA, nA
			}
			for k, task := range accs[j].tasks {
				t := &accs[j].tallies[k]
				sum[task] += float64(t.fp)
				n[task] += float64(t.fp + t.tn)
			}
		}
		d := stats.DiffMeansCR1(sumA, nA, sumB, nB)
		if math.IsNaN(d.P) {
			continue
		}
		rows[i].VsRest = &RestTest{FPRRest: d.MeanB, NNegRest: int(d.NB), Diff: d.Diff, SE: d.SE, P: d.P}
		tested = append(tested, i)
		raw = append(raw, d.P)
	}
	adj, err := stats.AdjustP(opts.Adjust, raw)
	if err != nil {
		return err
	}
	for k, i := range tested {
		v := rows[i].VsRest
		v.PAdjusted = adj[k]
		v.Significant = adj[k] <= opts.Q
	}
	return nil
}
