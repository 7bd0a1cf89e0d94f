package trust

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/trustlake/trustlake/schema"
)

type d4Result struct {
	status     string
	tier       string
	repeatTier *string
	repeats    int
	infra      int
	gap        *float64
	reason     string
}

// Tier maps a score in [0, 1] to a grade tier: pass at 1, fail at 0,
// partial in between.
func Tier(score float64) string {
	switch {
	case score >= 1-1e-9:
		return schema.TierPass
	case score <= 1e-9:
		return schema.TierFail
	}
	return schema.TierPartial
}

// taskKey groups the repeats of one task by one agent.
type taskKey struct{ benchmark, agent, task string }

// auditD4 judges each result against its repeats: the other trials of the
// same task and agent (at most opts.Repeats, lowest trial numbers first).
// Infrastructure failures are counted, and excluded (InfraExclude) or taken
// as failed runs of score 0 (InfraFailure). Fewer than opts.MinRepeats
// valid repeats is insufficient; repeats on more than one tier are varied;
// otherwise stable, or stable_other when they agree on a tier other than the
// recorded one.
func auditD4(vs []verdict, opts Options) {
	groups := map[taskKey][]int{}
	for i := range vs {
		r := &vs[i].res
		k := taskKey{r.Benchmark, r.Agent, r.TaskID}
		groups[k] = append(groups[k], i)
	}
	for _, idx := range groups {
		sort.Slice(idx, func(a, b int) bool { return vs[idx[a]].res.Trial < vs[idx[b]].res.Trial })
		for _, i := range idx {
			vs[i].d4 = d4For(vs, i, idx, opts)
		}
	}
}

// runScore is a result's score as a run: 0 for an infrastructure failure
// under InfraFailure; ok is false when the policy leaves it out.
func runScore(r *schema.Result, infraPolicy string) (score float64, ok bool) {
	if r.Infra != nil {
		return 0, infraPolicy == InfraFailure
	}
	return r.RecordedScore, true
}

func d4For(vs []verdict, self int, group []int, opts Options) d4Result {
	me := &vs[self].res
	d := d4Result{tier: Tier(me.RecordedScore)}
	if me.Infra != nil {
		d.status, d.reason = schema.D4Insufficient, "infrastructure failure: not a valid run"
		return d
	}
	var scores []float64
	sum := 0.0
	tiers := map[string]bool{}
	for _, j := range group {
		if j == self {
			continue
		}
		if vs[j].res.Infra != nil {
			d.infra++
		}
		score, ok := runScore(&vs[j].res, opts.InfraPolicy)
		if !ok || len(scores) == opts.Repeats {
			continue
		}
		scores = append(scores, score)
		sum += score
		tiers[Tier(score)] = true
	}
	d.repeats = len(scores)
	if len(scores) > 0 {
		d.gap = new(sum/float64(len(scores)) - me.RecordedScore)
	}
	switch {
	case len(scores) < opts.MinRepeats:
		d.status = schema.D4Insufficient
		d.reason = fmt.Sprintf("%d valid repeats (%d infrastructure failures, policy %s); need %d", len(scores), d.infra, opts.InfraPolicy, opts.MinRepeats)
		if len(group) == 1 {
			d.reason = "single trial: no repeats to compare"
		}
	case len(tiers) > 1:
		d.status = schema.D4Varied
		d.reason = fmt.Sprintf("%d repeats cross tiers %v", len(scores), slices.Sorted(maps.Keys(tiers)))
	default:
		t := slices.Sorted(maps.Keys(tiers))[0]
		d.repeatTier = &t
		if t == d.tier {
			d.status = schema.D4Stable
			d.reason = fmt.Sprintf("%d repeats all %s", len(scores), t)
		} else {
			d.status = schema.D4StableOther
			d.reason = fmt.Sprintf("%d repeats all %s, recorded %s", len(scores), t, d.tier)
		}
	}
	return d
}
