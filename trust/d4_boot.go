package trust

import (
	"math"

	"github.com/trustlake/trustlake/stats"
)

// DefaultSeed is the bootstrap seed of the D4 intervals when Options.Seed
// is 0 (the seed metrics uses).
const DefaultSeed = 20261010

// d4Unit is one (benchmark, agent, task) of a report row with its valid
// trials: passes c of n, and whether they cross tiers.
type d4Unit struct {
	key    taskKey
	c, n   int
	varied bool
}

// d4Intervals fills the task-cluster percentile bootstrap intervals of the
// varied rate and of pass^1..pass^K (d.PassK, on the tasks with at least
// K valid runs). Both are ratios of sums over tasks — varied tasks over
// tasks with two or more trials; Σ C(c,k)/C(n,k) over the tasks with n ≥ K
// over their number — so stats.BootstrapRatios resamples the clusters, a
// cluster being one task of one benchmark (with every agent's trials of it
// in the total row).
func d4Intervals(d *D4Stats, units []d4Unit, opts Options) {
	d.PassHatKBoot = make([][]Num, len(d.PassHatK))
	cluster := map[[2]string]int{}
	var ids []string
	at := make([]int, len(units))
	for i, u := range units {
		k := [2]string{u.key.benchmark, u.key.task}
		j, ok := cluster[k]
		if !ok {
			j = len(ids)
			cluster[k] = j
			ids = append(ids, u.key.benchmark+"\x00"+u.key.task)
		}
		at[i] = j
	}
	C := len(ids)
	vec := func() []float64 { return make([]float64, C) }
	variedNum, variedDen := vec(), vec()
	K := len(d.PassHatK)
	passNum := make([][]float64, K)
	for k := range passNum {
		passNum[k] = vec()
	}
	passDen := vec()
	for i, u := range units {
		j := at[i]
		if u.n >= 2 {
			variedDen[j]++
			if u.varied {
				variedNum[j]++
			}
		}
		if K > 0 && u.n >= d.PassK {
			passDen[j]++
			for k := 1; k <= K; k++ {
				passNum[k-1][j] += stats.PassHatK([]int{u.c}, []int{u.n}, k)
			}
		}
	}
	ratios := []stats.RatioStat{{A: stats.Ratio{Num: variedNum, Den: variedDen}}}
	for k := range K {
		ratios = append(ratios, stats.RatioStat{A: stats.Ratio{Num: passNum[k], Den: passDen}})
	}
	ivs, err := stats.BootstrapRatios(ids, ratios, stats.BootstrapOptions{Resamples: opts.Resamples, Alpha: opts.Alpha, Seed: opts.Seed, Workers: opts.Workers})
	if err != nil {
		return // ids are distinct and the vectors have len(ids): cannot happen
	}
	d.VariedRateBoot = bootPair(ivs[0])
	for k := range K {
		d.PassHatKBoot[k] = bootPair(ivs[k+1])
	}
}

// bootPair is [lo, hi], or nil (JSON null) when the interval is undefined.
func bootPair(iv stats.Interval) []Num {
	if !iv.OK || math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		return nil
	}
	return []Num{Num(iv.Lo), Num(iv.Hi)}
}
