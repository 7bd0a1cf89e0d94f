package metrics

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/stats"
)

// Lambda choices of RateOptions.Lambda: which corrected estimate the text
// output puts first (the JSON has both).
const (
	LambdaTuned = "tuned" // PPI++: λ chosen to minimise the variance
	LambdaOne   = "1"     // plain PPI
)

// AllAgents is the agent of a rate row that pools every agent.
const AllAgents = "(all)"

// MixAlarmP is the level below which the χ² test of homogeneity between
// labelled and unlabelled episodes (over tasks, or over agents) raises a
// warning: the ground truth does not look like a random subset.
const MixAlarmP = 0.01

// RateAssumption is the assumption every corrected rate rests on; the
// output states it.
const RateAssumption = "the episodes with ground truth are a random subset of the judged episodes " +
	"(same task and agent mix); the PPI estimates are unbiased only then"

// RateOptions configure Rate. Zero values mean the defaults.
type RateOptions struct {
	Judges, Conditions []string // only these; nil means all
	ByAgent            bool     // one row per agent; else one row pooling every agent
	Source             string   // episode source; "" means natural
	GT                 string   // reference: queries.GTVerifier (default), GTHuman or GTAny
	UncertainPolicy    string   // an uncertain majority is failure (default), success or exclude
	// Threshold makes score-only runs (reward models) verdicts: score >=
	// *Threshold is a success. Score uses the episode's mean run score as
	// the prediction instead. Without either, score-only judges have no
	// prediction and are skipped with a warning.
	Threshold *float64
	Score     bool
	Lambda    string  // LambdaTuned (default) or LambdaOne
	Alpha     float64 // two-sided level; 0 means 0.05
	Resamples int     // bootstrap resamples; 0 means 2000
	Seed      uint64  // bootstrap seed; 0 means DefaultSeed
	Stop      <-chan struct{}
}

// RateEngine runs the sufficient-statistics SQL of Rate (a DuckDB
// *queries.Session).
type RateEngine interface {
	RateCells(ctx context.Context, opts queries.RateCellOptions) ([]queries.RateCell, error)
}

var _ RateEngine = (*queries.Session)(nil)

// RateEstimate is one success-rate estimate: its value, the normal
// interval ppi-python's ppi_mean_ci (or classical_mean_ci) gives, and the
// task-cluster percentile bootstrap interval. NaN marks undefined.
type RateEstimate struct {
	Value float64
	CI    [2]float64
	Boot  [2]float64
	// Lambda is the PPI++ power-tuning parameter (ppi_tuned only).
	Lambda    float64
	HasLambda bool
}

// MixTest compares the task (or agent) mix of labelled and unlabelled
// episodes (stats.CompareMix).
type MixTest stats.MixDifference

// RateRow is the corrected success rate of one agent (or AllAgents) under
// one judge and condition.
type RateRow struct {
	Agent, Judge, Condition string
	Labelled, Unlabelled    int // episodes with and without ground truth (with a prediction)
	LeftOut                 int // judged episodes without a prediction
	Tasks                   int
	JudgeOnly               RateEstimate // mean prediction over all episodes
	GTOnly                  RateEstimate // mean ground truth over the labelled
	PPI                     RateEstimate // λ = 1
	PPITuned                RateEstimate // λ tuned (PPI++)
	// EffectiveLabels is how many ground-truth labels alone would give
	// the tuned estimate's standard error: σ²(Y)/SE².
	EffectiveLabels float64
	TaskMix         MixTest
	AgentMix        *MixTest // rows pooling several agents
}

// RateReport is the result of Rate.
type RateReport struct {
	Options    RateOptions
	Prediction string // what f is, in words
	Rows       []RateRow
	Warnings   []string
}

func (o RateOptions) withDefaults() (RateOptions, error) {
	m, err := Options{Source: o.Source, GT: o.GT, UncertainPolicy: o.UncertainPolicy, Alpha: o.Alpha,
		Resamples: o.Resamples, Seed: o.Seed}.withDefaults()
	if err != nil {
		return o, err
	}
	o.Source, o.GT, o.UncertainPolicy, o.Alpha, o.Resamples, o.Seed = m.Source, m.GT, m.UncertainPolicy, m.Alpha, m.Resamples, m.Seed
	o.Lambda = cmp.Or(o.Lambda, LambdaTuned)
	if o.Lambda != LambdaTuned && o.Lambda != LambdaOne {
		return o, fmt.Errorf("%w: --lambda %q: want tuned or 1", ErrBadOption, o.Lambda)
	}
	if o.Score && o.Threshold != nil {
		return o, fmt.Errorf("%w: --score and --threshold: give one (the mean score, or the verdict at a threshold)", ErrBadOption)
	}
	return o, nil
}

// prediction describes f in words.
func (o RateOptions) prediction() string {
	if o.Score {
		return "the episode's mean run score (score-only judges; judges without scores are left out)"
	}
	s := fmt.Sprintf("the majority verdict over runs (success 1, failure 0, uncertain: %s)", o.UncertainPolicy)
	if o.Threshold != nil {
		s += fmt.Sprintf("; score-only runs are success when score >= %g", *o.Threshold)
	}
	return s
}

// Rate computes, per judge × condition (and agent), the judge-only,
// ground-truth-only and prediction-powered success rates (PPI and PPI++;
// stats.PPIMean) from the per-task rows of sql/rate_cells.sql, each with its
// normal interval and a task-cluster bootstrap interval.
func Rate(ctx context.Context, e RateEngine, opts RateOptions) (RateReport, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return RateReport{}, err
	}
	cells, err := e.RateCells(ctx, queries.RateCellOptions{Source: o.Source, GT: o.GT, UncertainPolicy: o.UncertainPolicy,
		Threshold: o.Threshold, Score: o.Score})
	if err != nil {
		return RateReport{}, err
	}
	if len(cells) == 0 {
		return RateReport{}, fmt.Errorf("%w: no judged %s episode with a task in the lake", ErrNoVerdicts, o.Source)
	}
	if cells, err = keepJudgeConditions(cells, o.Judges, o.Conditions); err != nil {
		return RateReport{}, err
	}
	rep := RateReport{Options: o, Prediction: o.prediction()}
	// One row per judge × condition and agent (cells are ordered by judge,
	// condition, agent, task), or per judge × condition with AllAgents.
	keyOf := func(c queries.RateCell) [3]string {
		if o.ByAgent {
			return [3]string{c.Judge, c.Condition, c.Agent}
		}
		return [3]string{c.Judge, c.Condition, AllAgents}
	}
	for _, g := range runsOf(cells, keyOf) {
		if ctx.Err() != nil {
			return RateReport{}, ctx.Err()
		}
		row, warns, err := rateRow(g, keyOf(g[0])[2], o)
		if err != nil {
			return RateReport{}, err
		}
		if row.Labelled+row.Unlabelled == 0 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s@%s %s: no episode has a prediction (%d left out): %s",
				row.Judge, row.Condition, row.Agent, row.LeftOut, noPredictionHint(o)))
			continue
		}
		rep.Rows = append(rep.Rows, row)
		rep.Warnings = append(rep.Warnings, warns...)
	}
	if len(rep.Rows) == 0 && !o.Score && o.Threshold == nil {
		return rep, fmt.Errorf("%w: %s", ErrScoreOnly, strings.Join(rep.Warnings, "; "))
	}
	return rep, nil
}

func noPredictionHint(o RateOptions) string {
	if o.Score {
		return "no run has a score"
	}
	if o.Threshold == nil {
		return "a score-only judge needs --threshold T or --score"
	}
	return "every majority is uncertain under --uncertain-policy exclude"
}

// keepJudgeConditions keeps the cells of the chosen judges and conditions,
// failing with ErrUnknown on a name no cell has.
func keepJudgeConditions(cells []queries.RateCell, judges, conditions []string) ([]queries.RateCell, error) {
	var haveJ, haveC []string
	for _, c := range cells {
		haveJ, haveC = append(haveJ, c.Judge), append(haveC, c.Condition)
	}
	haveJ, haveC = distinct(haveJ), distinct(haveC)
	if err := cmp.Or(known(judges, haveJ, "--judge %q: the lake has %s"),
		known(conditions, haveC, "--condition %q: the lake has %s")); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(cells, func(c queries.RateCell) bool {
		return len(judges) > 0 && !slices.Contains(judges, c.Judge) ||
			len(conditions) > 0 && !slices.Contains(conditions, c.Condition)
	}), nil
}

// rateRow computes one row: its clusters are the tasks (cells of several
// agents on one task are summed into one cluster).
func rateRow(cells []queries.RateCell, agent string, o RateOptions) (RateRow, []string, error) {
	row := RateRow{Agent: agent, Judge: cells[0].Judge, Condition: cells[0].Condition}
	byTask := map[string]int{}
	var ids []string
	var sums []stats.PPISums
	agentN := map[string][2]float64{}
	var total stats.PPISums
	for _, c := range cells {
		i, ok := byTask[c.TaskID]
		if !ok {
			i = len(ids)
			byTask[c.TaskID] = i
			ids, sums = append(ids, c.TaskID), append(sums, stats.PPISums{})
		}
		sums[i].AddScaled(c.Sums, 1)
		total.AddScaled(c.Sums, 1)
		row.LeftOut += c.LeftOut
		a := agentN[c.Agent]
		agentN[c.Agent] = [2]float64{a[0] + c.Sums.N, a[1] + c.Sums.NU}
	}
	row.Labelled, row.Unlabelled, row.Tasks = int(total.N), int(total.NU), len(ids)
	a := o.Alpha
	row.JudgeOnly = estimate(stats.ClassicalMean(total.N+total.NU, total.F+total.FU, total.FF+total.FFU, a), false)
	row.GTOnly = estimate(stats.ClassicalMean(total.N, total.Y, total.YY, a), false)
	row.PPI = estimate(stats.PPIMean(total, 1, a), false)
	tuned := stats.PPIMeanTuned(total, a)
	row.PPITuned = estimate(tuned, true)
	row.EffectiveLabels = stats.PPIEffectiveLabels(total, tuned)
	boot, err := stats.PPIBootstrap(ids, sums, stats.BootstrapOptions{Resamples: o.Resamples, Alpha: a, Seed: o.Seed, Stop: o.Stop})
	if err != nil {
		return row, nil, err
	}
	row.JudgeOnly.Boot, row.GTOnly.Boot = bounds(boot.JudgeOnly), bounds(boot.GTOnly)
	row.PPI.Boot, row.PPITuned.Boot = bounds(boot.PPI), bounds(boot.Tuned)
	var la, ua []float64
	for _, s := range sums {
		la, ua = append(la, s.N), append(ua, s.NU)
	}
	row.TaskMix = MixTest(stats.CompareMix(la, ua))
	name := fmt.Sprintf("%s@%s %s", row.Judge, row.Condition, agent)
	var warns []string
	warn := func(what string, m MixTest) {
		if m.P < MixAlarmP {
			warns = append(warns, fmt.Sprintf("%s: labelled and unlabelled episodes differ in %s mix (TV distance %.3f, chi-square %.1f on %d df, p %.2g < %g): the ground truth does not look like a random subset, and the PPI estimates may be biased",
				name, what, m.TV, m.ChiSquare, m.DF, m.P, MixAlarmP))
		}
	}
	warn("task", row.TaskMix)
	if agent == AllAgents && len(agentN) > 1 {
		var la, ua []float64
		for _, ag := range slices.Sorted(maps.Keys(agentN)) {
			la, ua = append(la, agentN[ag][0]), append(ua, agentN[ag][1])
		}
		m := MixTest(stats.CompareMix(la, ua))
		row.AgentMix = &m
		warn("agent", m)
	}
	switch {
	case row.Labelled == 0 && row.Unlabelled > 0:
		warns = append(warns, name+": no episode has ground truth: only the judge-only rate is defined")
	case row.Unlabelled == 0 && row.Labelled > 0:
		warns = append(warns, name+": every episode has ground truth: nothing to correct, the PPI estimates are undefined (use gt_only)")
	}
	if row.Tasks < 2 && row.Labelled+row.Unlabelled > 0 {
		warns = append(warns, name+": episodes from fewer than two tasks: no bootstrap interval")
	}
	return row, warns, nil
}

func estimate(e stats.PPIEstimate, tuned bool) RateEstimate {
	return RateEstimate{Value: e.Value, CI: [2]float64{e.Lo, e.Hi}, Boot: [2]float64{math.NaN(), math.NaN()}, Lambda: e.Lambda, HasLambda: tuned}
}
