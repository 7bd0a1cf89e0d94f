package trust

// D4 per-task statistics: tiers, variance decomposition, pass^k on one task set.

import (
	"cmp"
	"maps"
	"slices"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// taskStats fills the task-level D4 figures: varied rate, variance
// decomposition and pass^k over the valid trials (infrastructure failures
// left out, or counted as score 0 under InfraFailure), with task-cluster
// bootstrap intervals of the varied rate and pass^k (d4Intervals).
func taskStats(d *D4Stats, vs []verdict, idx []int, opts Options) {
	byTask := map[taskKey][]float64{}
	for _, i := range idx {
		r := &vs[i].res
		if score, ok := runScore(r, opts.InfraPolicy); ok {
			k := taskKey{r.Benchmark, r.Agent, r.TaskID}
			byTask[k] = append(byTask[k], score)
		}
	}
	keys := slices.SortedFunc(maps.Keys(byTask), func(a, b taskKey) int {
		return cmp.Or(cmp.Compare(a.benchmark, b.benchmark), cmp.Compare(a.agent, b.agent), cmp.Compare(a.task, b.task))
	})
	groups := make([][]float64, 0, len(keys))
	var c, n []int
	var units []d4Unit
	varied := 0
	for _, k := range keys {
		g := byTask[k]
		groups = append(groups, g)
		passes := 0
		tiers := map[string]bool{}
		for _, s := range g {
			tiers[Tier(s)] = true
			if Tier(s) == schema.TierPass {
				passes++
			}
		}
		c, n = append(c, passes), append(n, len(g))
		units = append(units, d4Unit{key: k, c: passes, n: len(g), varied: len(tiers) > 1})
		if len(g) >= 2 {
			d.Tasks++
			if len(tiers) > 1 {
				varied++
			}
		}
	}
	d.VariedRate = mean(float64(varied), d.Tasks)
	b, w, rho := stats.OneWayVariance(groups)
	d.Sigma2Between, d.Sigma2Within, d.Rho = Num(b), Num(w), Num(rho)
	passK(d, c, n, opts.PassK)
	d4Intervals(d, units, opts)
}

// passK fills pass^1..pass^K on one task set, the tasks with at least K
// valid runs (K = want, or when want is 0 the largest k that at least half
// of the tasks reach). Each task's C(c,k)/C(n,k) uses its own n, so a task
// with more than K runs still gives an unbiased term.
func passK(d *D4Stats, c, n []int, want int) {
	d.PassHatK = []Num{}
	k := want
	if k <= 0 {
		sorted := slices.Clone(n)
		slices.Sort(sorted)
		if len(sorted) > 0 {
			k = sorted[len(sorted)/2] // at least half the tasks have ≥ k runs
		}
	}
	var cs, ns []int
	for i := range n {
		if n[i] >= k {
			cs, ns = append(cs, c[i]), append(ns, n[i])
		}
	}
	d.PassK, d.PassKTasks, d.PassKLeftOut = k, len(ns), len(n)-len(ns)
	if len(ns) == 0 {
		return
	}
	for j := 1; j <= k; j++ {
		d.PassHatK = append(d.PassHatK, Num(stats.PassHatK(cs, ns, j)))
	}
}
