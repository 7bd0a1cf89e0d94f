package nightly

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// MaxROCPoints bounds the ROC curve kept per reward model: the report
// grows with judges × conditions, not with episodes.
const MaxROCPoints = 200

// Build computes every section of the report from the lake. The figures
// are the typed results of the same functions the commands metrics,
// compare, threshold, trust, checklist and lake check print. Errors of the
// metrics package (metrics.ErrNoVerdicts, ...) are returned as they are,
// but where a lake without verdicts or ground truth still gets a report
// (a warning then says what is missing).
func Build(ctx context.Context, src *lake.Lake, opts Options) (*report.Document, error) {
	opts = opts.withDefaults()
	version, digest, err := src.ManifestDigest()
	if err != nil {
		return nil, err
	}
	doc := &report.Document{Format: report.FormatVersion, Title: opts.Title,
		Judges: []report.JudgeRow{}, Strata: []report.StratumRow{}, ClaimSway: []report.Sway{}, RewardModels: []report.RewardModel{},
		Checklists: []report.Checklist{}, Gates: []report.GateResult{}, Warnings: []string{}, Calibration: []report.CalibrationRow{},
		Summary: report.Summary{Line: "No baseline given: changes are not computed.", Alpha: report.Num(opts.Alpha), Q: report.NaN()},
		Provenance: report.Provenance{Version: opts.Version, Lake: opts.LakeDir, ManifestVersion: version, ManifestSHA256: digest,
			GeneratedAt: time.Now().UTC().Truncate(time.Second), Seed: opts.Seed, Params: opts.params()}}
	sess, err := queries.Open(ctx, src, queries.Options{Logger: opts.Logger, Threads: opts.Threads})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	eng := newEngine(sess, opts.Threshold)
	go eng.openSecond(ctx, src, queries.Options{Logger: opts.Logger, Threads: opts.Threads})
	defer eng.closeSecond()
	// The lake check (file sizes) and the Trust Layer audit (through a
	// session of its own) run beside the judge sections from the start; the
	// health statements after the judge sections, so as not to delay the
	// statements whose statistics follow. Each fills its own part of doc; errors are returned in
	// the order of a sequential run.
	var (
		wg                                              sync.WaitGroup
		lakeErr, healthErr, trustErr, extraErr, rateErr error
	)
	wg.Go(func() { lakeErr = lakeHealth(ctx, src, doc) })
	wg.Go(func() { trustErr = trustSection(ctx, opts, eng, src, doc) })
	health := sync.OnceFunc(func() { healthErr = healthSection(ctx, eng, doc) })
	// Every judge section starts from the lake's counts and judge ×
	// conditions: read those once for all of them. The calibration,
	// agreement and corrected-rate sections run beside the judge sections
	// (their statements and statistics overlap), from when the metrics
	// cells statement has the session; the extra sections' rows and
	// warnings go into the document after the judge sections'.
	var extra extras
	err = eng.Prepare(ctx)
	if err == nil {
		wg.Go(func() {
			if rateErr = eng.afterCells(ctx); rateErr == nil {
				rateErr = rateSection(ctx, opts, eng, doc)
			}
		})
		wg.Go(func() {
			if extraErr = eng.afterCells(ctx); extraErr == nil {
				extra, extraErr = extraSections(ctx, opts, eng)
			}
		})
		err = judgeSections(ctx, opts, eng, judge.NewStore(src), doc, func() { wg.Go(health) })
		eng.openGate()
	}
	health() // when the judge sections did not start it
	wg.Wait()
	if err := cmp.Or(err, lakeErr, healthErr, trustErr, extraErr, rateErr); err != nil {
		return nil, err
	}
	extra.fill(doc)
	return doc, nil
}

// judgeSections fills the judge table, strata, claim sway, reward models
// and checklists. It starts then once its sections are computed.
func judgeSections(ctx context.Context, opts Options, s *engine, packs metrics.PackReader, doc *report.Document, then func()) error {
	// One scan: judge × conditions with the episodes a missing threshold
	// leaves unscored (reward models); with --threshold those are scored.
	jcs, err := s.MetricsJudgeConditions(ctx, nil)
	if err != nil || len(jcs) == 0 {
		return err
	}
	mopts := metrics.Options{By: []string{metrics.ByHardness, metrics.ByCategory, metrics.BySource}, Source: opts.Source,
		UncertainPolicy: opts.UncertainPolicy, Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed, Threshold: opts.Threshold,
		StrataFPROnly: true}
	scored := map[queries.JudgeCondition]bool{}
	var rms []queries.JudgeCondition // reward models, not judges with verdicts
	for _, jc := range jcs {
		scored[jc.JudgeCondition] = opts.Threshold != nil || jc.Unscored == 0
		if jc.Unscored > 0 {
			rms = append(rms, jc.JudgeCondition)
		}
		// Without a threshold reward models get their own section, not a skip warning.
		if opts.Threshold == nil && jc.Unscored == 0 && !slices.Contains(mopts.Judges, jc.Judge) {
			mopts.Judges = append(mopts.Judges, jc.Judge)
		}
	}
	swayJudges := judgesWithSway(jcs, scored)
	// The sections run concurrently (the engine gives each statement the
	// session in turn, the Go statistics overlap). Each is the same deterministic
	// computation as alone; their results are put in the document in the
	// order of a sequential run, and the first error in that order is the
	// one returned.
	var (
		wg        sync.WaitGroup
		rep       metrics.Report
		runErr    error
		sways     = make([]metrics.Comparison, len(swayJudges))
		swayErrs  = make([]error, len(swayJudges))
		models    = make([]*report.RewardModel, len(rms))
		modelErrs = make([]error, len(rms))
	)
	// The metrics cells statement goes first (its bootstrap is the longest
	// computation), the claim sways and reward models after it.
	wg.Go(func() {
		rep, runErr = metrics.Run(ctx, s, mopts)
		s.openGate()
	})
	for i, judge := range swayJudges {
		wg.Go(func() {
			if swayErrs[i] = s.afterCells(ctx); swayErrs[i] != nil {
				return
			}
			sways[i], swayErrs[i] = metrics.Compare(ctx, s, metrics.CompareOptions{
				A:      queries.JudgeCondition{Judge: judge, Condition: schema.ConditionClaim},
				B:      queries.JudgeCondition{Judge: judge, Condition: schema.ConditionLastK},
				Source: opts.Source, UncertainPolicy: opts.UncertainPolicy, Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed, Threshold: opts.Threshold})
		})
	}
	if len(rms) > 0 {
		wg.Go(func() {
			if err := s.afterCells(ctx); err != nil {
				modelErrs[0] = err
				return
			}
			rewardModels(ctx, opts, s, rms, models, modelErrs)
		})
	}
	wg.Wait()
	then()
	if runErr != nil {
		return warnOnly(runErr, doc, "judge metrics")
	}
	doc.Warnings = append(doc.Warnings, rep.Warnings...)
	for _, r := range rep.Rows {
		switch dim, v := r.StratumKey(); {
		case dim == "":
			doc.Judges = append(doc.Judges, judgeRow(r))
		case v == metrics.StratumPass || r.NNeg == 0:
		default:
			doc.Strata = append(doc.Strata, report.StratumRow{Judge: r.Judge, Condition: r.Condition, By: dim, Value: v,
				NNeg: r.NNeg, FP: r.FP, FPR: estimate(r.FPR, r.FP, r.NNeg)})
		}
	}
	for i, judge := range swayJudges {
		if swayErrs[i] != nil {
			return swayErrs[i]
		}
		n := sways[i].Negatives
		doc.ClaimSway = append(doc.ClaimSway, report.Sway{Judge: judge, Claim: schema.ConditionClaim, Base: schema.ConditionLastK,
			NPairs: n.NPairs, B: n.B, C: n.C, McNemarP: report.Num(n.McNemar),
			FPRClaim: estimate(n.RateA, -1, n.NPairs), FPRBase: estimate(n.RateB, -1, n.NPairs), Sway: estimate(n.Diff, 0, 0),
			Significant: n.McNemar < opts.Alpha})
	}
	for i, rm := range models {
		if modelErrs[i] != nil {
			return modelErrs[i]
		}
		if rm != nil {
			doc.RewardModels = append(doc.RewardModels, *rm)
		}
	}
	for _, jc := range opts.Checklists {
		cl, err := locked(ctx, s, func(sess *queries.Session, ctx context.Context) (metrics.ChecklistReport, error) {
			return metrics.Checklist(ctx, sess, metrics.ChecklistOptions{Judge: jc, TargetFPR: opts.FPRTarget, UncertainPolicy: opts.UncertainPolicy,
				Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed, Threshold: opts.Threshold, Packs: packs})
		})
		if err != nil {
			return err
		}
		out := report.Checklist{Judge: cl.Judge, Condition: cl.Condition, Pass: cl.Pass, Failed: cl.Failed, NotChecked: cl.NotChecked}
		for _, it := range cl.Items {
			out.Items = append(out.Items, report.ChecklistItem{ID: it.ID, Title: it.Title, Status: it.Status, Figure: it.Figure, Reason: it.Reason})
		}
		doc.Checklists = append(doc.Checklists, out)
	}
	return nil
}

// judgesWithSway lists the judges that have verdicts under both E2+claim
// and E2-lastk.
func judgesWithSway(jcs []queries.JudgeConditionCount, usable map[queries.JudgeCondition]bool) []string {
	var out []string
	for _, jc := range jcs {
		if jc.Condition != schema.ConditionClaim || !usable[jc.JudgeCondition] {
			continue
		}
		if usable[queries.JudgeCondition{Judge: jc.Judge, Condition: schema.ConditionLastK}] && !slices.Contains(out, jc.Judge) {
			out = append(out, jc.Judge)
		}
	}
	slices.Sort(out)
	return out
}

// rewardModels fills models[i] (or errs[i]) with the reward-model section
// of the score-only judge × condition jcs[i]: the trustlake threshold
// result and its ROC curve. They are computed together
// (metrics.Thresholds: one reward model under several conditions shares
// its bootstrap pass), each with Threshold's figures.
func rewardModels(ctx context.Context, opts Options, s *engine, jcs []queries.JudgeCondition, models []*report.RewardModel, errs []error) {
	all := make([]metrics.ThresholdOptions, len(jcs))
	for i, jc := range jcs {
		all[i] = metrics.ThresholdOptions{Judge: jc, Source: opts.Source, TargetFPR: opts.FPRTarget,
			Folds: opts.Folds, Alpha: opts.Alpha, Resamples: opts.Resamples, Seed: opts.Seed}
	}
	ths, thErrs := metrics.Thresholds(ctx, s, all)
	for i, th := range ths {
		if thErrs[i] != nil {
			errs[i] = thErrs[i]
			continue
		}
		models[i] = &report.RewardModel{Judge: th.Judge, Condition: th.Condition, TargetFPR: report.Num(th.TargetFPR), Threshold: report.Num(th.Threshold),
			Folds: th.Folds, NPos: th.NPos, NNeg: th.NNeg,
			HeldOutFPR: estimate(th.HeldOutFPR, th.FP, th.FP+th.TN), HeldOutTPR: estimate(th.HeldOutTPR, th.TP, th.TP+th.FN),
			AUC: estimate(th.AUC, 0, 0), ROC: thinROC(th.ROC)}
	}
}

// thinROC keeps at most MaxROCPoints points of a curve, always the first
// and the last.
func thinROC(pts []stats.ROCPoint) []report.ROCPoint {
	step := 1
	if len(pts) > MaxROCPoints {
		step = (len(pts) + MaxROCPoints - 2) / (MaxROCPoints - 1)
	}
	out := []report.ROCPoint{}
	for i := range pts {
		if i%step == 0 || i == len(pts)-1 {
			out = append(out, report.ROCPoint{FPR: report.Num(pts[i].FPR), TPR: report.Num(pts[i].TPR)})
		}
	}
	return out
}

// estimate converts a metric; k and n are the counts of a proportion (n 0
// when it is none; k < 0 derives k from the value).
func estimate(m metrics.Metric, k, n int) report.Estimate {
	e := report.Estimate{Value: report.Num(m.Value), Wilson: report.NoInterval(), Boot: interval(m.Boot)}
	if m.HasWilson {
		e.Wilson = interval(m.Wilson)
	}
	if n > 0 {
		if k < 0 {
			k = int(math.Round(m.Value * float64(n)))
		}
		e.K, e.N = k, n
	}
	return e
}

// interval converts a [lo, hi] pair.
func interval[N ~float64](iv [2]N) report.Interval {
	return report.Interval{report.Num(iv[0]), report.Num(iv[1])}
}

func judgeRow(r metrics.Row) report.JudgeRow {
	return report.JudgeRow{Judge: r.Judge, Condition: r.Condition, NEpisodes: r.NEpisodes, NPos: r.NPos, NNeg: r.NNeg,
		TP: r.TP, FP: r.FP, TN: r.TN, FN: r.FN, NTasks: r.NTasks,
		FPR: estimate(r.FPR, r.FP, r.FP+r.TN), FDR: estimate(r.FDR, r.FP, r.FP+r.TP), TPR: estimate(r.TPR, r.TP, r.TP+r.FN),
		Inflation: estimate(r.Inflation, 0, 0), Kappa: estimate(r.Kappa, 0, 0),
		SelfConsistency: estimate(r.SelfConsistency, r.NAgree, r.NEligible),
		UncertainRate:   estimate(r.UncertainRate, r.NUncertain, r.NEpisodes),
		ParseErrorRate:  estimate(r.ParseErrorRate, r.NParseError, r.NRuns)}
}

// warnOnly turns "nothing to measure" into a warning: a lake with only
// Trust Layer results still gets a report.
func warnOnly(err error, doc *report.Document, what string) error {
	switch {
	case errors.Is(err, metrics.ErrNoVerdicts), errors.Is(err, metrics.ErrNoGroundTruth), errors.Is(err, metrics.ErrScoreOnly):
		doc.Warnings = append(doc.Warnings, fmt.Sprintf("%s: %v", what, err))
		return nil
	}
	return err
}

// convert maps xs through f; the result is never nil (an empty list, not
// null, in report.json).
func convert[S, T any](xs []S, f func(S) T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
