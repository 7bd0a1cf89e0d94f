package sim

import (
	"fmt"
	"slices"

	"github.com/trustlake/trustlake/schema"
)

// Perturbation kinds (seed §3.3) and the failure category each one causes
// when the re-run verifier says it broke the episode.
var perturbations = [...]struct{ name, category string }{
	{"skip-save", schema.CatUncommitted},
	{"shift-target-row", schema.CatWrongTarget},
	{"write-sibling-dir", schema.CatWrongTarget},
	{"cancel-dialog", schema.CatUncommitted},
}

// episode is the latent truth of one simulated episode.
type episode struct {
	task, agent, k int
	id             string
	source         string
	pass           bool
	category       string // "" when pass
	claim          bool   // final message claims success
	nSteps         int
	pPass          float64 // model probability that GT passes
	parent         int     // index of the parent episode (perturbed), else -1
	perturbation   string
}

// plan is everything decided before any file is written.
type plan struct {
	opts       Options
	difficulty []float64   // per task, logit scale
	taskEffect [][]float64 // [judge][task], standard normal
	episodes   []episode
	rowsPer    int // verdict rows per episode
	// theta[judge][condition][class][claim] is the probit acceptance
	// threshold; class 0 is GT pass, class i is schema.Categories[i-1].
	theta [][][][2]float64
}

// rowsPerEpisode is the number of verdict rows one episode produces.
func rowsPerEpisode(o Options) int {
	n := 0
	for _, j := range o.Judges {
		n += len(j.Conditions) * o.Runs
	}
	return n
}

// cellSizes returns the number of episodes per (task, agent) cell, in task
// then agent order.
func cellSizes(o Options, rowsPer int) []int {
	cells := o.Tasks * len(o.Agents)
	if o.VerdictRows <= 0 {
		return slices.Repeat([]int{o.EpisodesPerTask}, cells)
	}
	sizes := make([]int, cells)
	total := (o.VerdictRows + rowsPer - 1) / rowsPer
	for i := range sizes {
		sizes[i] = total / cells
		if i < total%cells {
			sizes[i]++
		}
	}
	return sizes
}

// newPlan validates o (with defaults applied) and draws every episode.
func newPlan(o Options) (*plan, error) {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	m := o.Model
	p := &plan{opts: o, rowsPer: rowsPerEpisode(o)}
	p.difficulty = make([]float64, o.Tasks)
	for t := range p.difficulty {
		p.difficulty[t] = m.TaskDifficultySD * newRand(o.Seed, streamTask, uint64(t)).NormFloat64()
	}
	p.taskEffect = make([][]float64, len(o.Judges))
	for j, jd := range o.Judges {
		p.taskEffect[j] = make([]float64, o.Tasks)
		for t := range p.taskEffect[j] {
			p.taskEffect[j][t] = newRand(o.Seed, streamTaskJudge, uint64(t), nameID(jd.Name)).NormFloat64()
		}
	}
	p.theta = thresholds(o)

	sizes := cellSizes(o, p.rowsPer)
	total := 0
	for _, s := range sizes {
		total += s
	}
	p.episodes = make([]episode, 0, total)
	cellStart := make([]int, len(sizes)+1)
	for t := 0; t < o.Tasks; t++ {
		for a := range o.Agents {
			c := t*len(o.Agents) + a
			cellStart[c] = len(p.episodes)
			for k := 0; k < sizes[c]; k++ {
				p.episodes = append(p.episodes, p.drawEpisode(t, a, k))
			}
		}
	}
	cellStart[len(sizes)] = len(p.episodes)
	for i := range p.episodes {
		if p.episodes[i].source == schema.SourcePerturbed {
			p.perturb(i, cellStart)
		}
	}
	return p, nil
}

// drawEpisode draws a natural or weakened episode; one meant to be
// perturbed gets its source set, and its natural draw is kept as the
// fallback for when no parent exists.
func (p *plan) drawEpisode(t, a, k int) episode {
	o, m := p.opts, p.opts.Model
	r := newRand(o.Seed, streamEpisode, uint64(t), uint64(a), uint64(k))
	e := episode{task: t, agent: a, k: k, parent: -1, source: schema.SourceNatural,
		id: fmt.Sprintf("sim-%d-t%04d-a%d-e%03d", o.Seed, t+1, a+1, k+1)}
	u := r.Float64() * (m.ShareNatural + m.ShareWeakened + m.SharePerturbed)
	logit := o.Agents[a].Skill - p.difficulty[t]
	switch {
	case u < m.ShareNatural:
	case u < m.ShareNatural+m.ShareWeakened:
		e.source = schema.SourceWeakened
		logit -= m.WeakenedPenalty
	default:
		e.source = schema.SourcePerturbed
	}
	e.pPass = logistic(logit)
	e.pass = r.Float64() < e.pPass
	uCat, uClaim := r.Float64(), r.Float64()
	if e.pass {
		e.claim = uClaim < m.PassClaimProb
		e.nSteps = intBetween(r, m.PassMinSteps, m.PassMaxSteps)
		return e
	}
	e.category = pickCategory(m, uCat)
	cp := m.Categories[e.category]
	e.claim = uClaim < cp.ClaimProb
	e.nSteps = intBetween(r, cp.MinSteps, cp.MaxSteps)
	return e
}

// pickCategory maps u in [0,1) to a category by weight.
func pickCategory(m *Model, u float64) string {
	total := 0.0
	for _, c := range schema.Categories {
		total += m.Categories[c].Weight
	}
	u *= total
	last := ""
	for _, c := range schema.Categories {
		w := m.Categories[c].Weight
		if w <= 0 {
			continue
		}
		last = c
		if u < w {
			return c
		}
		u -= w
	}
	return last
}

// perturb turns episode i into a perturbed replay of a passing natural
// episode of the same task (same agent preferred). Without one it stays a
// natural episode with its own draw.
func (p *plan) perturb(i int, cellStart []int) {
	o := p.opts
	e := &p.episodes[i]
	r := newRand(o.Seed, streamPerturb, uint64(e.task), uint64(e.agent), uint64(e.k))
	cell := e.task*len(o.Agents) + e.agent
	cands := p.parents(cellStart[cell], cellStart[cell+1])
	if len(cands) == 0 {
		first := e.task * len(o.Agents)
		cands = p.parents(cellStart[first], cellStart[first+len(o.Agents)])
	}
	if len(cands) == 0 {
		e.source = schema.SourceNatural
		return
	}
	e.parent = cands[r.IntN(len(cands))]
	parent := &p.episodes[e.parent]
	kind := perturbations[r.IntN(len(perturbations))]
	e.perturbation = kind.name
	e.pPass = o.Model.PerturbedPassProb
	e.pass = r.Float64() < e.pPass
	e.category = ""
	if !e.pass {
		e.category = kind.category
	}
	e.claim = parent.claim
	e.nSteps = parent.nSteps
}

// parents returns the indexes in [lo, hi) of passing natural episodes.
func (p *plan) parents(lo, hi int) []int {
	var c []int
	for j := lo; j < hi; j++ {
		if p.episodes[j].source == schema.SourceNatural && p.episodes[j].pass {
			c = append(c, j)
		}
	}
	return c
}

// thresholds computes probit acceptance thresholds per judge, condition,
// class and claim (see the package documentation).
func thresholds(o Options) [][][][2]float64 {
	m := o.Model
	th := make([][][][2]float64, len(o.Judges))
	for j, jd := range o.Judges {
		th[j] = make([][][2]float64, len(jd.Conditions))
		for ci, c := range jd.Conditions {
			cls := make([][2]float64, 1+len(schema.Categories))
			cls[0] = [2]float64{probit(jd.TPR), probit(jd.TPR)}
			for k, cat := range schema.Categories {
				base := probit(jd.FPR[cat])
				if schema.Hardness(cat) == schema.HardnessHard {
					base += m.ConditionShift[c]
				}
				claim := base
				if c == schema.ConditionClaim {
					claim += jd.ClaimShift
				}
				cls[k+1] = [2]float64{base, claim}
			}
			th[j][ci] = cls
		}
	}
	return th
}

// classOf returns the threshold class of an episode.
func classOf(e *episode) int {
	if e.pass {
		return 0
	}
	return 1 + slices.Index(schema.Categories, e.category)
}
