package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// These tests check that generated data follow the documented model: rates
// measured on a large sample are within a few standard errors of the
// values computed from the parameters by the formulas in doc.go (computed
// here independently of the generator's own threshold code).

// sample is a generated verdict set read back from disk, with each
// episode's latent truth (GT, category, claim, task) taken from the plan:
// the same Options give the same plan (TestGenerateDeterministic and
// TestGenerateContent check the episode files against it).
type sample struct {
	ep      map[string]*episode
	verdict []verdictLine
}

func generateSample(t *testing.T, o Options) sample {
	t.Helper()
	o.Episodes = EpisodeNone
	o.SingleVerdictsFile = true
	dir := t.TempDir()
	st, err := Generate(t.Context(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	s := sample{ep: map[string]*episode{}, verdict: readVerdicts(t, dir, st)}
	for i := range p.episodes {
		s.ep[p.episodes[i].id] = &p.episodes[i]
	}
	return s
}

// tally counts successes per cluster (task) for a cluster-robust SE.
type tally struct {
	n, y     map[string]float64
	expected float64 // sum of expected probabilities
}

func newTally() *tally { return &tally{n: map[string]float64{}, y: map[string]float64{}} }

func (c *tally) add(cluster string, hit bool, p float64) {
	c.n[cluster]++
	if hit {
		c.y[cluster]++
	}
	c.expected += p
}

// size is the number of observations.
func (c *tally) size() float64 {
	var n float64
	for _, v := range c.n {
		n += v
	}
	return n
}

// rate is the observed rate.
func (c *tally) rate() float64 {
	var n, y float64
	for cl := range c.n {
		n, y = n+c.n[cl], y+c.y[cl]
	}
	return y / n
}

// check compares the observed rate with the expected one; the standard
// error is the larger of the binomial and the cluster-robust one.
func (c *tally) check(t *testing.T, what string, k float64) {
	t.Helper()
	var n, y float64
	for cl := range c.n {
		n, y = n+c.n[cl], y+c.y[cl]
	}
	if n < 200 {
		t.Fatalf("%s: only %v observations", what, n)
	}
	got, want := y/n, c.expected/n
	var ss float64
	for cl := range c.n {
		d := c.y[cl] - got*c.n[cl]
		ss += d * d
	}
	g := float64(len(c.n))
	se := math.Max(math.Sqrt(want*(1-want)/n), math.Sqrt(ss*g/(g-1))/n)
	if math.Abs(got-want) > k*se {
		t.Errorf("%s: rate %.4f, want %.4f ± %.0f×%.4f (n=%v)", what, got, want, k, se, n)
	}
}

func phiT(x float64) float64    { return 0.5 * math.Erfc(-x/math.Sqrt2) }
func probitT(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// wantAccept is the modal acceptance probability from the doc.go formula.
func wantAccept(o Options, j Judge, cond string, e *episode) float64 {
	if e.pass {
		return j.TPR
	}
	x := probitT(j.FPR[e.category])
	if schema.Hardness(e.category) == schema.HardnessHard {
		x += o.Model.ConditionShift[cond]
	}
	if cond == schema.ConditionClaim && e.claim {
		x += j.ClaimShift
	}
	return phiT(x)
}

func largeOptions() Options {
	o := DefaultOptions()
	o.Tasks = 200
	o.EpisodesPerTask = 60
	o.Runs = 1
	o.Model.ShareNatural, o.Model.ShareWeakened, o.Model.SharePerturbed = 1, 0, 0
	return o
}

// TestModelJudgeRates: per judge, condition and class, the share of runs
// that say success (VLM) or score ≥ 0.5 (reward model) matches the model.
// Task and episode effects are on (defaults), so the test also checks that
// they leave the marginal rates unchanged; standard errors are
// cluster-robust by task.
func TestModelJudgeRates(t *testing.T) {
	o := largeOptions()
	s := generateSample(t, o)
	judges := map[string]Judge{}
	for _, j := range o.Judges {
		judges[j.Name] = j
	}
	tallies := map[string]*tally{}
	add := func(key, task string, hit bool, p float64) {
		if tallies[key] == nil {
			tallies[key] = newTally()
		}
		tallies[key].add(task, hit, p)
	}
	for _, v := range s.verdict {
		j, e := judges[v.Judge], s.ep[v.EpisodeID]
		task := taskID(e.task)
		a := wantAccept(o, j, v.Condition, e)
		class, stratum := "pass", "pass"
		if !e.pass {
			class, stratum = e.category, schema.Hardness(e.category)
			if v.Condition == schema.ConditionClaim {
				class += fmt.Sprintf(" claim=%v", e.claim)
				stratum += fmt.Sprintf(" claim=%v", e.claim)
			}
		}
		var hit bool
		var want float64
		switch j.Kind {
		case KindRewardModel:
			add(v.Judge+" parse_error", task, v.Score == nil, j.ParseErrorRate)
			if v.Score == nil {
				continue
			}
			hit, want = *v.Score >= 0.5, a
		default:
			add(v.Judge+" uncertain", task, *v.Verdict == schema.VerdictUncertain, j.UncertainRate)
			add(v.Judge+" parse_error", task, *v.Verdict == schema.VerdictParseError, j.ParseErrorRate)
			keep := 1 - j.ParseErrorRate - j.UncertainRate
			hit, want = *v.Verdict == schema.VerdictSuccess, keep*(a*(1-j.FlipProb)+(1-a)*j.FlipProb)
		}
		add(v.Judge+" "+v.Condition+" "+class, task, hit, want)
		add(v.Judge+" "+v.Condition+" stratum "+stratum, task, hit, want)
	}
	// The brief's acceptance test: FPR of sim:vlm-a per category in the
	// reference condition E2-lastk within 3 SE.
	for _, cat := range schema.Categories {
		tallies["sim:vlm-a E2-lastk "+cat].check(t, "sim:vlm-a E2-lastk "+cat, 3)
	}
	// Pooled strata (hard, obvious, claim, pass) per judge × condition are
	// precise enough to catch a wrong condition or claim shift: 3 SE.
	// Every other cell with enough data: 4 SE (about 150 checks).
	checked := 0
	for k, c := range tallies {
		switch {
		case strings.HasPrefix(k, "sim:vlm-a E2-lastk F-"):
		case strings.Contains(k, " stratum "):
			c.check(t, k, 3)
			checked++
		case c.size() >= 200:
			c.check(t, k, 4)
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d rates checked", checked)
	}
}

// TestModelEffects checks the direction and size of the condition and
// claim effects for one judge on paired episodes.
func TestModelEffects(t *testing.T) {
	o := largeOptions()
	s := generateSample(t, o)
	rate := map[string][2]float64{} // key → (successes, n)
	for _, v := range s.verdict {
		e := s.ep[v.EpisodeID]
		if v.Judge != "sim:vlm-b" || e.pass || v.Verdict == nil {
			continue
		}
		k := v.Condition + " " + schema.Hardness(e.category)
		if e.claim {
			k += " claim"
		}
		r := rate[k]
		if *v.Verdict == schema.VerdictSuccess {
			r[0]++
		}
		r[1]++
		rate[k] = r
	}
	fpr := func(k string) float64 { return rate[k][0] / rate[k][1] }
	for _, claim := range []string{"", " claim"} {
		final, lastk, full := fpr("E1-final hard"+claim), fpr("E2-lastk hard"+claim), fpr("E3-full hard"+claim)
		if !(final > lastk+0.03 && lastk > full+0.03) {
			t.Errorf("hard negatives%s: FPR E1-final %.3f, E2-lastk %.3f, E3-full %.3f; want clearly decreasing", claim, final, lastk, full)
		}
		obvFinal, obvFull := fpr("E1-final obvious"+claim), fpr("E3-full obvious"+claim)
		if math.Abs(obvFinal-obvFull) > 0.04 {
			t.Errorf("obvious failures%s: FPR E1-final %.3f vs E3-full %.3f; want no condition effect", claim, obvFinal, obvFull)
		}
	}
	sway := fpr("E2+claim hard claim") - fpr("E2-lastk hard claim")
	if sway < 0.15 {
		t.Errorf("claim sway on claiming hard negatives = %.3f, want ≥ 0.15 (claim shift 0.8)", sway)
	}
	if d := fpr("E2+claim hard") - fpr("E2-lastk hard"); math.Abs(d) > 0.05 {
		t.Errorf("E2+claim vs E2-lastk without a claim: %.3f, want ≈ 0", d)
	}
}

// TestModelTaskClustering: with a large TaskCorr, per-task acceptance
// rates vary far more than binomial noise allows; with TaskCorr = 0 they
// do not.
func TestModelTaskClustering(t *testing.T) {
	cases := []struct {
		taskCorr float64
		lo, hi   float64 // bounds on variance ratio observed / binomial
	}{
		{0, 0.6, 1.5},
		{0.5, 3, math.Inf(1)},
	}
	for _, tc := range cases {
		o := largeOptions()
		o.Tasks = 80
		o.EpisodesPerTask = 30
		o.Model.TaskCorr, o.Model.EpisodeCorr = tc.taskCorr, 0
		o.Judges = o.Judges[:1]
		o.Judges[0].FlipProb, o.Judges[0].UncertainRate, o.Judges[0].ParseErrorRate = 0, 0, 0
		o.Conditions = []string{schema.ConditionLastK}
		s := generateSample(t, o)
		n, y := map[int]float64{}, map[int]float64{}
		for _, v := range s.verdict {
			e := s.ep[v.EpisodeID]
			if !e.pass {
				continue
			}
			n[e.task]++
			if *v.Verdict == schema.VerdictSuccess {
				y[e.task]++
			}
		}
		tpr := o.Judges[0].TPR
		var obs, bin float64
		for task := range n {
			p := y[task] / n[task]
			obs += (p - tpr) * (p - tpr)
			bin += tpr * (1 - tpr) / n[task]
		}
		if r := obs / bin; r < tc.lo || r > tc.hi {
			t.Errorf("task corr %v: variance ratio of per-task TPR = %.2f, want in [%v, %v]", tc.taskCorr, r, tc.lo, tc.hi)
		}
	}
}

// TestModelGroundTruth: GT pass rates per agent and source follow
// logistic(skill − difficulty), source shares and category weights hold.
func TestModelGroundTruth(t *testing.T) {
	o := DefaultOptions()
	o.Tasks = 150
	o.EpisodesPerTask = 30
	o.Model.ShareNatural, o.Model.ShareWeakened, o.Model.SharePerturbed = 0.6, 0.2, 0.2
	p, err := newPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	pass := map[string]*tally{}
	weakened, perturbed := newTally(), newTally()
	category := map[string]*tally{}
	for _, c := range schema.Categories {
		category[c] = newTally()
	}
	var totalWeight float64
	for _, c := range schema.Categories {
		totalWeight += o.Model.Categories[c].Weight
	}
	for _, e := range p.episodes {
		task := taskID(e.task)
		// Sources are drawn per slot; a perturbed slot without a passing
		// parent falls back to natural, so perturbed is at most its share.
		weakened.add(task, e.source == schema.SourceWeakened, 0.2)
		perturbed.add(task, e.source == schema.SourcePerturbed, 0.2)
		if e.source == schema.SourcePerturbed {
			continue
		}
		skill := o.Agents[e.agent].Skill - p.difficulty[e.task]
		if e.source == schema.SourceWeakened {
			skill -= o.Model.WeakenedPenalty
		}
		k := o.Agents[e.agent].Name + " " + e.source
		if pass[k] == nil {
			pass[k] = newTally()
		}
		pass[k].add(task, e.pass, 1/(1+math.Exp(-skill)))
		if !e.pass {
			for _, c := range schema.Categories {
				category[c].add(task, e.category == c, o.Model.Categories[c].Weight/totalWeight)
			}
		}
	}
	weakened.check(t, "weakened share", 3)
	if got := perturbed.rate(); got < 0.17 || got > 0.21 {
		t.Errorf("perturbed share %.3f, want a little under 0.2", got)
	}
	for k, c := range pass {
		c.check(t, "GT pass "+k, 3)
	}
	for _, c := range schema.Categories {
		category[c].check(t, "category share "+c, 3)
	}
}
