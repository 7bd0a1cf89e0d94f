package trust

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// TestD4Intervals checks the task-cluster bootstrap intervals of pass^k and
// the varied rate against stats.ClusterBootstrap over the tasks, with the
// statistic computed by stats.PassHatK (a separate path from the ratio
// batch Audit uses), on 40 tasks × 2 agents with 2 to 6 trials each. In
// the total row a cluster is a task with both agents' trials.
func TestD4Intervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	type unit struct {
		c, n   int
		varied bool
	}
	byTask := map[string]map[string]unit{} // task → agent → trials
	var recs []Record
	for i := range 40 {
		task := fmt.Sprintf("t%02d", i)
		byTask[task] = map[string]unit{}
		p := rng.Float64()
		for _, agent := range []string{"a", "b"} {
			u := unit{n: 2 + rng.IntN(5)}
			tiers := map[string]bool{}
			for trial := range u.n {
				score := 0.0
				if rng.Float64() < p {
					score, u.c = 1, u.c+1
				}
				tiers[Tier(score)] = true
				recs = append(recs, Record{Result: schema.Result{ResultID: fmt.Sprintf("%s/%s/%d", agent, task, trial), Benchmark: "b", Agent: agent,
					TaskID: task, Trial: int64(trial), RecordedScore: score, RecordedPass: score == 1, Grader: "{}"}})
			}
			u.varied = len(tiers) > 1
			byTask[task][agent] = u
		}
	}
	opts := Options{PassK: 3, Resamples: 500, Seed: 9}
	rep, _ := Audit(Input{Records: recs}, opts)
	var tasks []string
	for task := range byTask {
		tasks = append(tasks, task)
	}
	check := func(name string, d D4Stats, agents []string) {
		t.Helper()
		bopts := stats.BootstrapOptions{Resamples: 500, Alpha: 0.05, Seed: 9}
		for k := 1; k <= 3; k++ {
			want, err := stats.ClusterBootstrap(tasks, func(idx []int) float64 {
				var c, n []int
				for _, i := range idx {
					for _, a := range agents {
						if u := byTask[tasks[i]][a]; u.n >= 3 {
							c, n = append(c, u.c), append(n, u.n)
						}
					}
				}
				return stats.PassHatK(c, n, k)
			}, bopts)
			if err != nil {
				t.Fatal(err)
			}
			got := d.PassHatKBoot[k-1]
			if len(got) != 2 || math.Abs(float64(got[0])-want.Lo) > 1e-12 || math.Abs(float64(got[1])-want.Hi) > 1e-12 ||
				math.Abs(float64(d.PassHatK[k-1])-want.Estimate) > 1e-12 {
				t.Errorf("%s pass^%d: %v %v, ClusterBootstrap %v [%v, %v]", name, k, d.PassHatK[k-1], got, want.Estimate, want.Lo, want.Hi)
			}
			if !(float64(got[0]) < float64(got[1])) {
				t.Errorf("%s pass^%d: empty interval %v", name, k, got)
			}
		}
		want, _ := stats.ClusterBootstrap(tasks, func(idx []int) float64 {
			varied, all := 0, 0
			for _, i := range idx {
				for _, a := range agents {
					all++
					if byTask[tasks[i]][a].varied {
						varied++
					}
				}
			}
			return float64(varied) / float64(all)
		}, bopts)
		got := d.VariedRateBoot
		if len(got) != 2 || math.Abs(float64(got[0])-want.Lo) > 1e-12 || math.Abs(float64(got[1])-want.Hi) > 1e-12 {
			t.Errorf("%s varied rate %v %v, ClusterBootstrap %v [%v, %v]", name, d.VariedRate, got, want.Estimate, want.Lo, want.Hi)
		}
	}
	for _, row := range rep.PerAgent {
		check("agent "+row.Agent, row.D4, []string{row.Agent})
	}
	check("total", rep.Total.D4, []string{"a", "b"})
	if rep.Bootstrap != 500 || rep.Seed != 9 {
		t.Errorf("report bootstrap %d seed %d, want 500 and 9", rep.Bootstrap, rep.Seed)
	}
}
