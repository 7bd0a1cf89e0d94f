package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// DefaultSeed is the seed used when Options.Seed is 0 (seed §4.6 bench.yaml).
const DefaultSeed = 20261010

// NamePrefix starts every simulated agent, judge and model name.
const NamePrefix = "sim:"

// EpisodeFiles says which files of an episode folder are written.
type EpisodeFiles int

const (
	// EpisodeFull writes meta.json, actions.jsonl and gt.json (and screens
	// with Options.Screens).
	EpisodeFull EpisodeFiles = iota
	// EpisodeMinimal writes meta.json and gt.json only: the fast path for
	// large verdict sets (the lake still learns task, agent, source and GT).
	EpisodeMinimal
	// EpisodeNone writes no episode folders, only verdicts.
	EpisodeNone
)

// Options configures Generate. Zero values mean defaults, except inside
// Model, whose fields are used as given (nil Model means DefaultModel()).
type Options struct {
	Seed            uint64   // 0 means DefaultSeed
	Tasks           int      // 0 means 150
	EpisodesPerTask int      // per task and agent; 0 means 4
	VerdictRows     int      // > 0: make ceil(VerdictRows/rows per episode) episodes, overriding EpisodesPerTask
	Runs            int      // runs per judge × condition; 0 means 3
	Agents          []Agent  // nil means DefaultAgents()
	Judges          []Judge  // nil means DefaultJudges()
	Conditions      []string // nil means DefaultConditions()
	Model           *Model   // nil means DefaultModel()

	Episodes           EpisodeFiles // which episode files to write
	Screens            bool         // write tiny PNG screenshots and name them in actions.jsonl
	SingleVerdictsFile bool         // all verdicts in verdicts/verdicts.jsonl instead of one file per judge × condition
	BaseTime           time.Time    // zero means 2026-10-10T09:00:00Z; created_at and called_at count from it
	Workers            int          // 0 means GOMAXPROCS; output does not depend on it

	// Progress, when set, is called from one goroutine after each batch
	// of episodes is written, with the number done and the total.
	Progress func(done, total int)
}

// Agent is one simulated agent. Its chance that a natural episode passes
// ground truth on task t is logistic(Skill − difficulty_t).
type Agent struct {
	Name  string  // must start with "sim:"
	Skill float64 // logit scale
}

// Judge kinds.
const (
	KindVLM         = "vlm" // emits verdicts success|failure|uncertain|parse_error with a confidence
	KindRewardModel = "rm"  // emits only scores in [0,1] (verdict null)
)

// Judge is one simulated judge. Rates are for condition E2-lastk, before
// the condition, claim and task effects of the model.
type Judge struct {
	Name  string // must start with "sim:"
	Model string // exact model id written on every row; "" means Name + "@1"
	Kind  string // KindVLM or KindRewardModel
	// TPR is P(accept | GT pass); for a reward model, P(score ≥ 0.5 | pass).
	TPR float64
	// FPR is P(accept | GT fail, category) per failure category; a missing
	// category is an error.
	FPR map[string]float64
	// ClaimShift is added to the probit of acceptance of a GT-failed
	// episode under E2+claim when its final message claims success.
	ClaimShift float64
	// FlipProb is the chance that one run flips the judge's modal verdict
	// (VLM only).
	FlipProb float64
	// UncertainRate is the chance that one run answers "uncertain" (VLM only).
	UncertainRate float64
	// ParseErrorRate is the chance that one run is a parse_error.
	ParseErrorRate float64
	// RunScoreSD is the share (as a standard deviation on the probit scale)
	// of a reward model's latent that is redrawn on every run (RM only).
	RunScoreSD float64
	// Conditions the judge runs under; nil means Options.Conditions.
	Conditions []string
}

// CategoryParams describes one failure category of natural and weakened
// episodes.
type CategoryParams struct {
	Weight    float64 // relative frequency among GT failures
	ClaimProb float64 // P(final message claims success | this category)
	MinSteps  int
	MaxSteps  int
}

// Model holds the numeric parameters of the simulation (see the package
// documentation for how they combine).
type Model struct {
	TaskDifficultySD  float64 // SD of task difficulty on the logit scale
	WeakenedPenalty   float64 // logit subtracted from skill for weakened episodes
	ShareNatural      float64 // relative share of natural episodes
	ShareWeakened     float64 // relative share of weakened episodes
	SharePerturbed    float64 // relative share of perturbed episodes
	PerturbedPassProb float64 // P(perturbed episode still passes GT)
	PassClaimProb     float64 // P(final message claims success | GT pass)
	PassMinSteps      int
	PassMaxSteps      int
	Categories        map[string]CategoryParams // every schema.Categories entry
	// ConditionShift is added to the probit of acceptance of hard
	// negatives (schema.Hardness == "hard") per condition.
	ConditionShift map[string]float64
	// TaskCorr is the share of a judge's latent variance that comes from a
	// per (task, judge) effect: how strongly outcomes cluster by task.
	TaskCorr float64
	// EpisodeCorr is the share that comes from a per (episode, judge)
	// effect shared by all conditions: how strongly conditions are paired.
	EpisodeCorr float64
}

// DefaultConditions lists the four evidence conditions (seed §3.5).
func DefaultConditions() []string {
	return []string{schema.ConditionFinal, schema.ConditionLastK, schema.ConditionFull, schema.ConditionClaim}
}

// DefaultAgents returns a strong and a weak agent.
func DefaultAgents() []Agent {
	return []Agent{{Name: "sim:agent-strong", Skill: 1.0}, {Name: "sim:agent-weak", Skill: -0.5}}
}

// DefaultJudges returns two VLM-style judges and one reward model.
func DefaultJudges() []Judge {
	js, _ := ParseJudges([]string{"sim:vlm-a", "sim:vlm-b", "sim:rm-1"})
	return js
}

// JudgePreset returns the parameters of a judge by name: the three default
// judges have their own; any other name starting with "sim:rm" gets the
// reward-model preset, any other "sim:" name the sim:vlm-a preset.
func JudgePreset(name string) (Judge, error) {
	if !strings.HasPrefix(name, NamePrefix) {
		return Judge{}, fmt.Errorf("judge %q: name must start with %q", name, NamePrefix)
	}
	fpr := func(abort, wrongApp, partial, uncommitted, wrongTarget, sideEffect, claim float64) map[string]float64 {
		return map[string]float64{
			schema.CatAbort: abort, schema.CatWrongApp: wrongApp, schema.CatPartial: partial,
			schema.CatUncommitted: uncommitted, schema.CatWrongTarget: wrongTarget,
			schema.CatSideEffect: sideEffect, schema.CatClaim: claim,
		}
	}
	j := Judge{Name: name, Kind: KindVLM, TPR: 0.92, ClaimShift: 0.5,
		FlipProb: 0.05, UncertainRate: 0.03, ParseErrorRate: 0.01,
		FPR: fpr(0.03, 0.08, 0.35, 0.55, 0.45, 0.30, 0.10)}
	switch {
	case name == "sim:vlm-b":
		j.TPR, j.ClaimShift, j.FlipProb = 0.88, 0.8, 0.08
		j.FPR = fpr(0.05, 0.12, 0.30, 0.45, 0.40, 0.35, 0.15)
	case strings.HasPrefix(name, "sim:rm"):
		j = Judge{Name: name, Kind: KindRewardModel, TPR: 0.85, ClaimShift: 0.3,
			ParseErrorRate: 0.005, RunScoreSD: 0.15,
			FPR: fpr(0.05, 0.10, 0.40, 0.60, 0.50, 0.35, 0.20)}
	}
	return j, nil
}

// DefaultModel returns the documented default parameters.
func DefaultModel() *Model {
	return &Model{
		TaskDifficultySD:  1.0,
		WeakenedPenalty:   1.5,
		ShareNatural:      0.8,
		ShareWeakened:     0.1,
		SharePerturbed:    0.1,
		PerturbedPassProb: 0.1,
		PassClaimProb:     0.95,
		PassMinSteps:      8,
		PassMaxSteps:      30,
		Categories: map[string]CategoryParams{
			schema.CatAbort:       {Weight: 0.15, ClaimProb: 0.05, MinSteps: 2, MaxSteps: 10},
			schema.CatWrongApp:    {Weight: 0.10, ClaimProb: 0.60, MinSteps: 6, MaxSteps: 25},
			schema.CatPartial:     {Weight: 0.25, ClaimProb: 0.50, MinSteps: 6, MaxSteps: 30},
			schema.CatUncommitted: {Weight: 0.15, ClaimProb: 0.70, MinSteps: 6, MaxSteps: 30},
			schema.CatWrongTarget: {Weight: 0.15, ClaimProb: 0.70, MinSteps: 6, MaxSteps: 30},
			schema.CatSideEffect:  {Weight: 0.10, ClaimProb: 0.80, MinSteps: 6, MaxSteps: 30},
			schema.CatClaim:       {Weight: 0.10, ClaimProb: 1.00, MinSteps: 1, MaxSteps: 3},
		},
		ConditionShift: map[string]float64{
			schema.ConditionFinal: 0.3, schema.ConditionLastK: 0,
			schema.ConditionFull: -0.3, schema.ConditionClaim: 0,
		},
		TaskCorr:    0.15,
		EpisodeCorr: 0.5,
	}
}

// DefaultOptions returns Options with every default filled in.
func DefaultOptions() Options {
	return Options{
		Seed:            DefaultSeed,
		Tasks:           150,
		EpisodesPerTask: 4,
		Runs:            3,
		Agents:          DefaultAgents(),
		Judges:          DefaultJudges(),
		Conditions:      DefaultConditions(),
		Model:           DefaultModel(),
		BaseTime:        time.Date(2026, 10, 10, 9, 0, 0, 0, time.UTC),
	}
}
