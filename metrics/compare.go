package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// CompareOptions configure Compare. Zero values mean the defaults of Options.
type CompareOptions struct {
	A, B            queries.JudgeCondition
	Source          string // "" means natural
	UncertainPolicy string // "" means failure
	Alpha           float64
	Resamples       int
	Seed            uint64
	Threshold       *float64 // for score-only judges
	GT              string   // reference: queries.GTVerifier (default), GTHuman or GTAny
}

// Paired is a paired comparison of A and B on one ground-truth class.
type Paired struct {
	// B counts pairs where A accepts and B rejects, C the reverse.
	B, C    int
	NPairs  int
	NTasks  int     // tasks holding the pairs (bootstrap clusters)
	McNemar float64 // exact two-sided McNemar p-value of B and C
	// RateA and RateB are the acceptance rates (FPR on negatives, TPR on
	// positives); Diff is RateA − RateB with a paired task-cluster
	// bootstrap interval.
	RateA, RateB, Diff Metric
}

// fields returns the JSON members of p, naming the rate rate (fpr or tpr).
func (p Paired) fields(rate string) map[string]any {
	return map[string]any{
		"b": p.B, "c": p.C, "n_pairs": p.NPairs, "n_tasks": p.NTasks, "mcnemar_p": jsonNum(p.McNemar),
		rate + "_a": p.RateA, rate + "_b": p.RateB, rate + "_diff": p.Diff,
	}
}

// Comparison is the result of Compare.
type Comparison struct {
	JudgeA, JudgeB  string // JUDGE@CONDITION
	Source          string
	UncertainPolicy string
	Alpha           float64
	Bootstrap       int
	Seed            uint64
	Threshold       *float64
	GT              string
	Negatives       Paired // GT failures: the rates are FPRs
	Positives       Paired // GT passes: the rates are TPRs
	// Accuracy pairs every episode: the rates are the shares of majority
	// verdicts that agree with the reference; b = A right and B wrong.
	Accuracy Paired
	Warnings []string
}

// MarshalJSON writes the negatives' figures at the top level (b, c,
// n_pairs, n_tasks, mcnemar_p, fpr_a, fpr_b, fpr_diff), the positives'
// under "positives" (tpr_*), agreement with the reference under "accuracy"
// (accuracy_*), the inputs under "params".
func (c Comparison) MarshalJSON() ([]byte, error) {
	out := c.Negatives.fields("fpr")
	out["a"], out["b_judge"] = c.JudgeA, c.JudgeB
	out["positives"] = c.Positives.fields("tpr")
	out["accuracy"] = c.Accuracy.fields("accuracy")
	out["params"] = map[string]any{"a": c.JudgeA, "b": c.JudgeB, "source": c.Source, "uncertain_policy": c.UncertainPolicy,
		"alpha": c.Alpha, "bootstrap": c.Bootstrap, "seed": c.Seed, "threshold": c.Threshold, "gt": c.GT}
	out["warnings"] = c.Warnings
	return json.Marshal(out)
}

// Compare pairs the majority verdicts of A and B on the episodes both
// judged (source natural by default, with ground truth): on GT negatives,
// b = A accepts and B rejects, c = the reverse, the exact two-sided
// McNemar p, and the FPR difference A − B with a paired task-cluster
// bootstrap interval; the same on GT positives for the TPR. With policy
// exclude a pair is dropped when either verdict is uncertain.
func Compare(ctx context.Context, s Engine, opts CompareOptions) (Comparison, error) {
	mo, err := Options{Source: opts.Source, UncertainPolicy: opts.UncertainPolicy, Alpha: opts.Alpha,
		Resamples: opts.Resamples, Seed: opts.Seed, GT: opts.GT}.withDefaults()
	if err != nil {
		return Comparison{}, err
	}
	mo.stop = ctx.Done()
	if _, err := prepare(ctx, s); err != nil {
		return Comparison{}, err
	}
	if err := checkJudgeConditions(ctx, s, opts.Threshold, opts.A, opts.B); err != nil {
		return Comparison{}, err
	}
	pairs, err := s.MetricsPairs(ctx, opts.A, opts.B, mo.Source, opts.Threshold, mo.GT)
	if err != nil {
		return Comparison{}, err
	}
	out := Comparison{JudgeA: opts.A.String(), JudgeB: opts.B.String(), Threshold: opts.Threshold, Source: mo.Source, UncertainPolicy: mo.UncertainPolicy,
		Alpha: mo.Alpha, Bootstrap: mo.Resamples, Seed: mo.Seed, GT: mo.GT, Warnings: []string{}}
	for _, side := range []struct {
		p    *Paired
		mode int
	}{{&out.Negatives, pairNegatives}, {&out.Positives, pairPositives}, {&out.Accuracy, pairAccuracy}} {
		if *side.p, err = paired(pairs, side.mode, mo.UncertainPolicy, mo.boot()); err != nil {
			return Comparison{}, err
		}
	}
	if out.Negatives.NPairs == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("no %s GT-negative episode was judged by both %s and %s", mo.Source, out.JudgeA, out.JudgeB))
	}
	if out.Negatives.NTasks < 2 && out.Negatives.NPairs > 0 {
		out.Warnings = append(out.Warnings, "the negatives come from fewer than two tasks: the bootstrap interval is null")
	}
	return out, nil
}

// Accepts maps a majority verdict to acceptance under the uncertain policy;
// ok is false when the policy excludes it.
func Accepts(majority, policy string) (accept, ok bool) {
	switch majority {
	case schema.VerdictSuccess:
		return true, true
	case schema.VerdictFailure:
		return false, true
	}
	switch policy {
	case UncertainSuccess:
		return true, true
	case UncertainExclude:
		return false, false
	}
	return false, true
}

// What paired compares: acceptance on GT negatives (FPR) or positives
// (TPR), or agreement with the reference on all episodes (accuracy).
const (
	pairNegatives = iota
	pairPositives
	pairAccuracy
)

// paired computes the comparison on the negatives, the positives, or (for
// accuracy) all pairs, where "accepts" becomes "agrees with the reference".
func paired(pairs []queries.MetricPair, mode int, policy string, bopts stats.BootstrapOptions) (Paired, error) {
	in := func(p queries.MetricPair) bool { return mode == pairAccuracy || p.GTPass == (mode == pairPositives) }
	var ids []string
	for _, p := range pairs {
		if in(p) {
			ids = append(ids, p.TaskID)
		}
	}
	ids = distinct(ids)
	n := len(ids)
	aNum, bNum, den := make([]float64, n), make([]float64, n), make([]float64, n)
	var out Paired
	aAcc, bAcc := 0, 0
	for _, p := range pairs {
		if !in(p) {
			continue
		}
		a, okA := Accepts(p.AMajority, policy)
		b, okB := Accepts(p.BMajority, policy)
		if !okA || !okB {
			continue
		}
		if mode == pairAccuracy {
			a, b = a == p.GTPass, b == p.GTPass
		}
		i, _ := slices.BinarySearch(ids, p.TaskID)
		den[i] += float64(p.N)
		out.NPairs += p.N
		if a {
			aNum[i] += float64(p.N)
			aAcc += p.N
		}
		if b {
			bNum[i] += float64(p.N)
			bAcc += p.N
		}
		switch {
		case a && !b:
			out.B += p.N
		case b && !a:
			out.C += p.N
		}
	}
	for i := range den {
		if den[i] > 0 {
			out.NTasks++
		}
	}
	out.McNemar = stats.McNemarExact(out.B, out.C)
	out.RateA = wilsonMetric(aAcc, out.NPairs, bopts.Alpha)
	out.RateB = wilsonMetric(bAcc, out.NPairs, bopts.Alpha)
	out.Diff = undefined(false)
	if out.NPairs > 0 {
		out.Diff.Value = float64(aAcc-bAcc) / float64(out.NPairs)
	}
	if out.NPairs == 0 || n < 2 {
		return out, nil
	}
	ivs, err := stats.BootstrapRatios(ids, []stats.RatioStat{
		{A: stats.Ratio{Num: aNum, Den: den}, B: stats.Ratio{Num: bNum, Den: den}},
		{A: stats.Ratio{Num: aNum, Den: den}},
		{A: stats.Ratio{Num: bNum, Den: den}},
	}, bopts)
	if err != nil {
		return out, fmt.Errorf("bootstrap paired difference: %w", err)
	}
	for i, m := range []*Metric{&out.Diff, &out.RateA, &out.RateB} {
		m.Boot = bounds(ivs[i])
	}
	return out, nil
}

// checkJudgeConditions fails with ErrUnknown, listing what the lake holds,
// when a judge × condition has no verdicts, and with ErrScoreOnly when it is
// score-only and no threshold is given.
func checkJudgeConditions(ctx context.Context, s Engine, threshold *float64, jcs ...queries.JudgeCondition) error {
	have, err := s.MetricsJudgeConditions(ctx, threshold)
	if err != nil {
		return err
	}
	var names []string
	for _, h := range have {
		names = append(names, h.String())
	}
	for _, jc := range jcs {
		i := slices.IndexFunc(have, func(h queries.JudgeConditionCount) bool { return h.JudgeCondition == jc })
		if i < 0 {
			return fmt.Errorf("%w: %s has no verdicts; the lake has %s", ErrUnknown, jc, strings.Join(names, ", "))
		}
		if have[i].Unscored > 0 && threshold == nil {
			return fmt.Errorf("%w: %s carries scores without verdicts (a reward model); give --threshold T or use trustlake threshold", ErrScoreOnly, jc)
		}
	}
	return nil
}

// ComparePairs compares A and B on pairs gathered elsewhere (for example
// the same episodes in two lakes: today's against a baseline), exactly as
// Compare does on the pairs of one lake: it returns the paired comparison
// on GT negatives (FPR) and on GT positives (TPR). opts.A and opts.B only
// name the sides.
func ComparePairs(pairs []queries.MetricPair, opts CompareOptions) (neg, pos Paired, err error) {
	mo, err := Options{Source: opts.Source, UncertainPolicy: opts.UncertainPolicy, Alpha: opts.Alpha,
		Resamples: opts.Resamples, Seed: opts.Seed}.withDefaults()
	if err != nil {
		return Paired{}, Paired{}, err
	}
	bopts := mo.boot()
	if neg, err = paired(pairs, pairNegatives, mo.UncertainPolicy, bopts); err != nil {
		return Paired{}, Paired{}, err
	}
	pos, err = paired(pairs, pairPositives, mo.UncertainPolicy, bopts)
	return neg, pos, err
}
