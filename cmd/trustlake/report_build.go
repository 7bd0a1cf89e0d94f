package main

import (
	"cmp"
	"context"
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
	"github.com/trustlake/trustlake/trust"
)

// maxROCPoints bounds the ROC curve kept per reward model: the report
// grows with judges × conditions, not with episodes.
const maxROCPoints = 200

// buildReport computes every section of the report from the lake. The
// figures are the typed results of the same functions the commands
// metrics, compare, threshold, trust, checklist and lake check print.
func buildReport(ctx context.Context, opts reportOptions, src *lake.Lake) (*report.Document, error) {
	version, digest, err := src.ManifestDigest()
	if err != nil {
		return nil, err
	}
	doc := &report.Document{Format: report.FormatVersion, Title: opts.title,
		Judges: []report.JudgeRow{}, Strata: []report.StratumRow{}, ClaimSway: []report.Sway{}, RewardModels: []report.RewardModel{},
		Checklists: []report.Checklist{}, Gates: []report.GateResult{}, Warnings: []string{},
		Summary: report.Summary{Line: "No baseline given: changes are not computed.", Alpha: report.Num(opts.alpha)},
		Provenance: report.Provenance{Version: versionString(), Lake: opts.lakeDir, ManifestVersion: version, ManifestSHA256: digest,
			GeneratedAt: time.Now().UTC().Truncate(time.Second), Seed: opts.seed, Params: reportParams(opts)}}
	sess, err := openSession(ctx, opts.globalOptions, nil, opts.threads)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	eng := newReportEngine(sess)
	// The lake check (file sizes) and the Trust Layer audit (through a
	// session of its own) run beside the judge sections from the start; the
	// health statements after the judge sections' statements, so as not to
	// delay them. Each fills its own part of doc; errors are returned in
	// the order of a sequential run.
	var (
		wg                           sync.WaitGroup
		lakeErr, healthErr, trustErr error
	)
	wg.Go(func() { lakeErr = lakeHealth(ctx, src, doc) })
	wg.Go(func() { trustErr = trustSection(ctx, opts, eng, src, doc) })
	health := sync.OnceFunc(func() { healthErr = healthSection(ctx, eng, doc) })
	// Every judge section starts from the lake's counts and the runs per
	// (judge, condition, episode): read those once for all of them.
	err = eng.Prepare(ctx, opts.threshold)
	if err == nil {
		err = judgeSections(ctx, opts, eng, judge.NewStore(src), doc, func() { wg.Go(health) })
	}
	health() // when the judge sections did not start it
	wg.Wait()
	if err := cmp.Or(err, lakeErr, healthErr, trustErr); err != nil {
		return nil, err
	}
	return doc, nil
}

func versionString() string { return version }

func reportParams(opts reportOptions) map[string]any {
	return map[string]any{"source": opts.source, "uncertain_policy": opts.policy, "alpha": opts.alpha,
		"bootstrap": opts.resamples, "seed": opts.seed, "threshold": opts.threshold, "fpr_target": opts.fprTarget,
		"folds": opts.folds, "d2_unconfirmed": opts.d2Policy, "repeats": opts.repeats}
}

func (o reportOptions) metricsOptions() metrics.Options {
	return metrics.Options{By: []string{metrics.ByHardness, metrics.ByCategory, metrics.BySource}, Source: o.source,
		UncertainPolicy: o.policy, Alpha: o.alpha, Resamples: o.resamples, Seed: o.seed, Threshold: o.threshold,
		StrataFPROnly: true}
}

// judgeSections fills the judge table, strata, claim sway, reward models
// and checklists. It starts then once its own statements are issued.
func judgeSections(ctx context.Context, opts reportOptions, s *reportEngine, packs metrics.PackReader, doc *report.Document, then func()) error {
	// One scan: judge × conditions with the episodes a missing threshold
	// leaves unscored (reward models); with --threshold those are scored.
	raw, err := s.MetricsJudgeConditions(ctx, nil)
	if err != nil {
		return err
	}
	jcs := raw
	if opts.threshold != nil {
		jcs = make([]queries.JudgeConditionCount, len(raw))
		for i, jc := range raw {
			jcs[i] = jc
			jcs[i].Unscored = 0
		}
	}
	if len(jcs) == 0 {
		return nil
	}
	mopts := opts.metricsOptions()
	if opts.threshold == nil { // reward models get their own section, not a skip warning
		for _, jc := range jcs {
			if jc.Unscored == 0 && !slices.Contains(mopts.Judges, jc.Judge) {
				mopts.Judges = append(mopts.Judges, jc.Judge)
			}
		}
		if len(mopts.Judges) == 0 {
			mopts.Judges = nil
		}
	}
	// The sections run concurrently (reportEngine takes the session in
	// turn for the few statements left). Each is the same deterministic
	// computation as alone; their results are put in the document in the
	// order of a sequential run, and the first error in that order is the
	// one returned.
	scored := map[queries.JudgeCondition]bool{}
	for _, jc := range jcs {
		scored[jc.JudgeCondition] = jc.Unscored == 0
	}
	swayJudges := judgesWithSway(jcs, scored)
	var rms []queries.JudgeCondition
	for _, jc := range raw {
		if jc.Unscored > 0 { // a reward model, not a judge with verdicts
			rms = append(rms, jc.JudgeCondition)
		}
	}
	var (
		wg        sync.WaitGroup
		rep       metrics.Report
		runErr    error
		sways     = make([]metrics.Comparison, len(swayJudges))
		swayErrs  = make([]error, len(swayJudges))
		models    = make([]*report.RewardModel, len(rms))
		modelErrs = make([]error, len(rms))
	)
	// The reward models' scores that the run counts do not give first, in
	// one statement: metrics, claim sways and reward models then compute
	// together without a statement (Prepare; each reward model averages
	// the scores the run counts give itself). Read while the Go statistics
	// already ran, the statement and its Go loop were slower and cost
	// ~25 ms more CPU (DuckDB's threads competing with the bootstraps for
	// 2 cores).
	if err := s.ReadScores(ctx, rms, opts.source); err != nil {
		return metricsError(err)
	}
	then()
	wg.Go(func() { rep, runErr = metrics.Run(ctx, s, mopts) })
	for i, judge := range swayJudges {
		wg.Go(func() {
			sways[i], swayErrs[i] = metrics.Compare(ctx, s, metrics.CompareOptions{
				A:      queries.JudgeCondition{Judge: judge, Condition: schema.ConditionClaim},
				B:      queries.JudgeCondition{Judge: judge, Condition: schema.ConditionLastK},
				Source: opts.source, UncertainPolicy: opts.policy, Alpha: opts.alpha, Resamples: opts.resamples, Seed: opts.seed, Threshold: opts.threshold})
		})
	}
	if len(rms) > 0 {
		wg.Go(func() { rewardModels(ctx, opts, s, rms, models, modelErrs) })
	}
	wg.Wait()
	if runErr != nil {
		return reportMetricsError(runErr, doc, "judge metrics")
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
			return metricsError(swayErrs[i])
		}
		n := sways[i].Negatives
		doc.ClaimSway = append(doc.ClaimSway, report.Sway{Judge: judge, Claim: schema.ConditionClaim, Base: schema.ConditionLastK,
			NPairs: n.NPairs, B: n.B, C: n.C, McNemarP: report.Num(n.McNemar),
			FPRClaim: estimate(n.RateA, -1, n.NPairs), FPRBase: estimate(n.RateB, -1, n.NPairs), Sway: estimate(n.Diff, 0, 0),
			Significant: n.McNemar < opts.alpha})
	}
	for i, rm := range models {
		if modelErrs[i] != nil {
			return modelErrs[i]
		}
		if rm != nil {
			doc.RewardModels = append(doc.RewardModels, *rm)
		}
	}
	for _, jc := range opts.checklists {
		var cl metrics.ChecklistReport
		err := s.locked(func(sess *queries.Session) (err error) {
			cl, err = metrics.Checklist(ctx, sess, metrics.ChecklistOptions{Judge: jc, TargetFPR: opts.fprTarget, UncertainPolicy: opts.policy,
				Alpha: opts.alpha, Resamples: opts.resamples, Seed: opts.seed, Threshold: opts.threshold, Packs: packs})
			return err
		})
		if err != nil {
			return metricsError(err)
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
func rewardModels(ctx context.Context, opts reportOptions, s *reportEngine, jcs []queries.JudgeCondition, models []*report.RewardModel, errs []error) {
	all := make([]metrics.ThresholdOptions, len(jcs))
	for i, jc := range jcs {
		all[i] = metrics.ThresholdOptions{Judge: jc, Source: opts.source, TargetFPR: opts.fprTarget,
			Folds: opts.folds, Alpha: opts.alpha, Resamples: opts.resamples, Seed: opts.seed}
	}
	ths, thErrs := metrics.Thresholds(ctx, s, all)
	for i, th := range ths {
		if thErrs[i] != nil {
			errs[i] = metricsError(thErrs[i])
			continue
		}
		models[i] = &report.RewardModel{Judge: th.Judge, Condition: th.Condition, TargetFPR: report.Num(th.TargetFPR), Threshold: report.Num(th.Threshold),
			Folds: th.Folds, NPos: th.NPos, NNeg: th.NNeg,
			HeldOutFPR: estimate(th.HeldOutFPR, th.FP, th.FP+th.TN), HeldOutTPR: estimate(th.HeldOutTPR, th.TP, th.TP+th.FN),
			AUC: estimate(th.AUC, 0, 0), ROC: thinROC(th.ROC)}
	}
}

// thinROC keeps at most maxROCPoints points of a curve, always the first
// and the last.
func thinROC(pts []stats.ROCPoint) []report.ROCPoint {
	step := 1
	if len(pts) > maxROCPoints {
		step = (len(pts) + maxROCPoints - 2) / (maxROCPoints - 1)
	}
	out := []report.ROCPoint{}
	for i := 0; i < len(pts); i += step {
		out = append(out, report.ROCPoint{FPR: report.Num(pts[i].FPR), TPR: report.Num(pts[i].TPR)})
	}
	if n := len(pts); n > 0 && (n-1)%step != 0 {
		out = append(out, report.ROCPoint{FPR: report.Num(pts[n-1].FPR), TPR: report.Num(pts[n-1].TPR)})
	}
	return out
}

// estimate converts a metric; k and n are the counts of a proportion (n 0
// when it is none; k < 0 derives k from the value).
func estimate(m metrics.Metric, k, n int) report.Estimate {
	e := report.Estimate{Value: report.Num(m.Value), Wilson: report.NoInterval(), Boot: report.Interval{report.Num(m.Boot[0]), report.Num(m.Boot[1])}}
	if m.HasWilson {
		e.Wilson = report.Interval{report.Num(m.Wilson[0]), report.Num(m.Wilson[1])}
	}
	if n > 0 {
		if k < 0 {
			k = int(math.Round(m.Value * float64(n)))
		}
		e.K, e.N = k, n
	}
	return e
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

// lakeHealth fills the lake's manifest-level check: CheckSizes (every file
// and key index present with its manifest size, orphans): a nightly report
// flags what a stat sees without re-hashing every file, which costs more
// than the metrics themselves; `trustlake lake check` does the full
// verification.
func lakeHealth(ctx context.Context, src *lake.Lake, doc *report.Document) error {
	chk, err := src.CheckSizes(ctx)
	if err != nil {
		return err
	}
	h := &doc.Health
	h.Lake = report.LakeHealth{Files: chk.Files, Rows: chk.Rows, Problems: []report.Problem{}, Damaged: chk.Damaged()}
	for _, p := range chk.Problems {
		h.Lake.Problems = append(h.Lake.Problems, report.Problem{Path: p.Path, Kind: p.Kind, Detail: p.Detail, Damage: p.Damage})
	}
	return nil
}

// healthSection fills verifier and data health: self-tests, ground-truth
// coverage and categories needing review.
func healthSection(ctx context.Context, s *reportEngine, doc *report.Document) error {
	h := &doc.Health
	vh, err := s.ReportHealth(ctx)
	if err != nil {
		return err
	}
	h.Verifiers = report.VerifierHealth{Verifiers: vh.Verifiers, Tested: vh.Tested, SelfTests: vh.SelfTests,
		SelfTestFailures: vh.SelfTestFailures, Nondeterministic: vh.Nondeterministic, Episodes: vh.Episodes, WithoutGT: vh.WithoutGT}
	rv, err := s.ReportNeedsReview(ctx)
	if err != nil {
		return err
	}
	h.NeedsReview = []report.ReviewCount{}
	for _, r := range rv {
		h.NeedsReview = append(h.NeedsReview, report.ReviewCount{Raw: r.Raw, Episodes: r.Episodes})
	}
	return nil
}

// trustSection audits the lake's recorded results (read only: nothing is
// stored) when it has any.
func trustSection(ctx context.Context, opts reportOptions, s *reportEngine, src *lake.Lake, doc *report.Document) error {
	have, err := s.TrustBenchmarks(ctx)
	if err != nil || len(have) == 0 {
		return err
	}
	topts := trustOptions{globalOptions: opts.globalOptions, d2Policy: opts.d2Policy, repeats: opts.repeats, alpha: opts.alpha}
	aopts, err := topts.auditOptions()
	if err != nil {
		return err
	}
	rep, _, err := auditLake(ctx, src, topts, aopts)
	if err != nil {
		return err
	}
	t := &report.Trust{D2Policy: rep.D2Policy, Repeats: rep.Repeats, Agents: []report.TrustAgent{},
		Dimensions: rep.Dimensions, InfraPolicy: rep.InfraPolicy, Scope: rep.Total.Scope.Line, Notices: rep.Notices}
	for _, a := range rep.PerAgent {
		t.Agents = append(t.Agents, trustAgent(a))
	}
	t.Total = trustAgent(rep.Total)
	f := rep.Total.Funnel
	// The funnel starts at the auditable passes (checkable on every chosen
	// dimension, trust.Scope): the stages after it count those.
	t.Funnel = []report.Stage{{Name: "auditable recorded passes", Passes: rep.Total.Scope.Auditable}, {Name: "D1 re-graded pass", Passes: f[0]},
		{Name: "+ D2 no reward hacking", Passes: f[1]}, {Name: "+ D3 no confirmed lie", Passes: f[2]},
		{Name: "+ D4 stable = trusted", Passes: rep.Total.Trusted}}
	doc.Trust = t
	return nil
}

func trustAgent(a trust.AgentRow) report.TrustAgent {
	tr := a.TrustedRate
	rate := report.Estimate{Value: report.Num(tr.Value), Wilson: report.Interval{report.Num(tr.Wilson[0]), report.Num(tr.Wilson[1])},
		Boot: report.NoInterval(), K: a.Trusted, N: a.Scope.Auditable} // the trusted rate is over the auditable passes
	return report.TrustAgent{Benchmark: a.Benchmark, Agent: a.Agent, Results: a.Results, RecordedPasses: a.RecordedPasses,
		RemovedD1: a.Removed.D1, RemovedD2: a.Removed.D2, RemovedD3: a.Removed.D3, RemovedD4: a.Removed.D4,
		Trusted: a.Trusted, TrustedRate: rate,
		D4: report.D4{Stable: a.D4.Stable, StableOther: a.D4.StableOther, Varied: a.D4.Varied, Insufficient: a.D4.Insufficient,
			VariedRate: report.Num(a.D4.VariedRate), Sigma2Between: report.Num(a.D4.Sigma2Between),
			Sigma2Within: report.Num(a.D4.Sigma2Within), Rho: report.Num(a.D4.Rho)}}
}
