package sim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// ErrOptions is wrapped by every error about invalid Options.
var ErrOptions = errors.New("invalid options")

func optErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrOptions, fmt.Sprintf(format, args...))
}

// withDefaults returns a copy of o with zero values replaced by defaults.
// Judges are copied (their Model and Conditions filled in); maps and the
// Model are shared with the caller, who must not change them meanwhile.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	o.Seed = cmp.Or(o.Seed, d.Seed)
	o.Tasks = cmp.Or(o.Tasks, d.Tasks)
	o.EpisodesPerTask = cmp.Or(o.EpisodesPerTask, d.EpisodesPerTask)
	o.Runs = cmp.Or(o.Runs, d.Runs)
	if o.Agents == nil {
		o.Agents = d.Agents
	}
	if o.Judges == nil {
		o.Judges = d.Judges
	}
	if o.Conditions == nil {
		o.Conditions = d.Conditions
	}
	o.Model = cmp.Or(o.Model, d.Model)
	if o.BaseTime.IsZero() {
		o.BaseTime = d.BaseTime
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	o.Judges = slices.Clone(o.Judges)
	for i := range o.Judges {
		o.Judges[i].Model = cmp.Or(o.Judges[i].Model, o.Judges[i].Name+"@1")
		if o.Judges[i].Conditions == nil {
			o.Judges[i].Conditions = o.Conditions
		}
	}
	return o
}

// Validate reports the first problem with o (after defaults are applied)
// as an error wrapping ErrOptions.
func (o Options) Validate() error {
	return o.withDefaults().validate()
}

func (o Options) validate() error {
	switch {
	case o.Tasks < 1:
		return optErr("tasks: %d, want ≥ 1", o.Tasks)
	case o.EpisodesPerTask < 1:
		return optErr("episodes per task: %d, want ≥ 1", o.EpisodesPerTask)
	case o.VerdictRows < 0:
		return optErr("verdict rows: %d, want ≥ 0", o.VerdictRows)
	case o.Runs < 1:
		return optErr("runs: %d, want ≥ 1", o.Runs)
	case len(o.Agents) == 0:
		return optErr("agents: none")
	case len(o.Judges) == 0:
		return optErr("judges: none")
	case o.Episodes < EpisodeFull || o.Episodes > EpisodeNone:
		return optErr("episode files: unknown mode %d", o.Episodes)
	}
	for _, c := range o.Conditions {
		if !slices.Contains(DefaultConditions(), c) {
			return optErr("condition %q: want one of %s", c, strings.Join(DefaultConditions(), ", "))
		}
	}
	seen := map[string]bool{}
	for _, a := range o.Agents {
		if err := checkName("agent", a.Name, seen); err != nil {
			return err
		}
		if math.IsNaN(a.Skill) || math.IsInf(a.Skill, 0) {
			return optErr("agent %q: skill: not a finite number", a.Name)
		}
	}
	if err := o.Model.validate(); err != nil {
		return err
	}
	clear(seen)
	for _, j := range o.Judges {
		if err := checkName("judge", j.Name, seen); err != nil {
			return err
		}
		if err := j.validate(o.Model); err != nil {
			return err
		}
	}
	return nil
}

func checkName(what, name string, seen map[string]bool) error {
	switch {
	case !strings.HasPrefix(name, NamePrefix) || len(name) == len(NamePrefix):
		return optErr("%s %q: name must start with %q", what, name, NamePrefix)
	case strings.ContainsAny(name, "\"\\/\n\r\t"):
		return optErr("%s %q: name must not contain quotes, slashes or control characters", what, name)
	case seen[name]:
		return optErr("%s %q: duplicate name", what, name)
	}
	seen[name] = true
	return nil
}

// prob names a value that must be a probability.
type prob struct {
	what string
	p    float64
}

func checkProb(what string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return optErr("%s: %v, want a probability in [0,1]", what, p)
	}
	return nil
}

func (j Judge) validate(m *Model) error {
	name := fmt.Sprintf("judge %q", j.Name)
	if j.Kind != KindVLM && j.Kind != KindRewardModel {
		return optErr("%s: kind %q, want %q or %q", name, j.Kind, KindVLM, KindRewardModel)
	}
	if !strings.HasPrefix(j.Model, NamePrefix) {
		return optErr("%s: model %q must start with %q", name, j.Model, NamePrefix)
	}
	probs := []prob{
		{"tpr", j.TPR}, {"flip probability", j.FlipProb}, {"uncertain rate", j.UncertainRate},
		{"parse-error rate", j.ParseErrorRate},
	}
	for _, c := range schema.Categories {
		p, ok := j.FPR[c]
		if !ok {
			return optErr("%s: fpr %s: missing", name, c)
		}
		probs = append(probs, prob{"fpr " + c, p})
	}
	for _, p := range probs {
		if err := checkProb(name+": "+p.what, p.p); err != nil {
			return err
		}
	}
	if j.UncertainRate+j.ParseErrorRate > 1 {
		return optErr("%s: uncertain rate + parse-error rate > 1", name)
	}
	if math.IsNaN(j.ClaimShift) || math.IsInf(j.ClaimShift, 0) {
		return optErr("%s: claim shift: not a finite number", name)
	}
	if !(j.RunScoreSD >= 0) || m.TaskCorr+m.EpisodeCorr+j.RunScoreSD*j.RunScoreSD > 1 {
		return optErr("%s: run score SD %v: want ≥ 0 with task corr + episode corr + SD² ≤ 1", name, j.RunScoreSD)
	}
	if len(j.Conditions) == 0 {
		return optErr("%s: conditions: none", name)
	}
	for _, c := range j.Conditions {
		if !slices.Contains(DefaultConditions(), c) {
			return optErr("%s: condition %q: want one of %s", name, c, strings.Join(DefaultConditions(), ", "))
		}
	}
	return nil
}

func (m *Model) validate() error {
	for _, p := range []prob{
		{"perturbed pass probability", m.PerturbedPassProb}, {"pass claim probability", m.PassClaimProb},
		{"task corr", m.TaskCorr}, {"episode corr", m.EpisodeCorr},
	} {
		if err := checkProb("model: "+p.what, p.p); err != nil {
			return err
		}
	}
	if m.TaskCorr+m.EpisodeCorr > 1 {
		return optErr("model: task corr + episode corr = %v, want ≤ 1", m.TaskCorr+m.EpisodeCorr)
	}
	if !(m.TaskDifficultySD >= 0) || math.IsInf(m.TaskDifficultySD, 0) {
		return optErr("model: task difficulty SD %v, want a finite number ≥ 0", m.TaskDifficultySD)
	}
	if math.IsNaN(m.WeakenedPenalty) || math.IsInf(m.WeakenedPenalty, 0) {
		return optErr("model: weakened penalty: not a finite number")
	}
	shares := []float64{m.ShareNatural, m.ShareWeakened, m.SharePerturbed}
	if slices.ContainsFunc(shares, func(s float64) bool { return !(s >= 0) || math.IsInf(s, 0) }) || m.ShareNatural+m.ShareWeakened <= 0 {
		return optErr("model: source shares %v: want finite ≥ 0 with natural + weakened > 0", shares)
	}
	if m.PassMinSteps < 1 || m.PassMaxSteps < m.PassMinSteps {
		return optErr("model: pass steps [%d,%d]: want 1 ≤ min ≤ max", m.PassMinSteps, m.PassMaxSteps)
	}
	total := 0.0
	for _, c := range schema.Categories {
		p, ok := m.Categories[c]
		if !ok {
			return optErr("model: category %s: missing", c)
		}
		if !(p.Weight >= 0) || math.IsInf(p.Weight, 0) {
			return optErr("model: category %s: weight %v, want a finite number ≥ 0", c, p.Weight)
		}
		if err := checkProb("model: category "+c+": claim probability", p.ClaimProb); err != nil {
			return err
		}
		if p.MinSteps < 1 || p.MaxSteps < p.MinSteps {
			return optErr("model: category %s: steps [%d,%d]: want 1 ≤ min ≤ max", c, p.MinSteps, p.MaxSteps)
		}
		total += p.Weight
	}
	if total <= 0 {
		return optErr("model: category weights sum to 0")
	}
	for c, s := range m.ConditionShift {
		if !slices.Contains(DefaultConditions(), c) {
			return optErr("model: condition shift %q: unknown condition", c)
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return optErr("model: condition shift %s: not a finite number", c)
		}
	}
	return nil
}
