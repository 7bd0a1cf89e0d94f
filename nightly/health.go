package nightly

import (
	"context"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/report"
	"github.com/trustlake/trustlake/trust"
)

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
	h.Lake = report.LakeHealth{Files: chk.Files, Rows: chk.Rows, Damaged: chk.Damaged(),
		Problems: convert(chk.Problems, func(p lake.Problem) report.Problem {
			return report.Problem{Path: p.Path, Kind: p.Kind, Detail: p.Detail, Damage: p.Damage}
		})}
	return nil
}

// healthSection fills verifier and data health: self-tests, ground-truth
// coverage and categories needing review.
func healthSection(ctx context.Context, s *engine, doc *report.Document) error {
	h := &doc.Health
	vh, err := locked(ctx, s, (*queries.Session).ReportHealth)
	if err != nil {
		return err
	}
	h.Verifiers = report.VerifierHealth{Verifiers: vh.Verifiers, Tested: vh.Tested, SelfTests: vh.SelfTests,
		SelfTestFailures: vh.SelfTestFailures, Nondeterministic: vh.Nondeterministic, Episodes: vh.Episodes, WithoutGT: vh.WithoutGT}
	rv, err := locked(ctx, s, (*queries.Session).ReportNeedsReview)
	if err != nil {
		return err
	}
	h.NeedsReview = convert(rv, func(r queries.ReviewCount) report.ReviewCount {
		return report.ReviewCount{Raw: r.Raw, Episodes: r.Episodes}
	})
	return nil
}

// trustSection audits the lake's recorded results (read only: nothing is
// stored) when it has any.
func trustSection(ctx context.Context, opts Options, s *engine, src *lake.Lake, doc *report.Document) error {
	if opts.Audit == nil {
		return nil
	}
	have, err := locked(ctx, s, (*queries.Session).TrustBenchmarks)
	if err != nil || len(have) == 0 {
		return err
	}
	rep, err := opts.Audit(ctx, src)
	if err != nil {
		return err
	}
	t := &report.Trust{D2Policy: rep.D2Policy, Repeats: rep.Repeats, Agents: convert(rep.PerAgent, trustAgent),
		Dimensions: rep.Dimensions, InfraPolicy: rep.InfraPolicy, Scope: rep.Total.Scope.Line, Notices: rep.Notices}
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
	rate := report.Estimate{Value: report.Num(tr.Value), Wilson: interval(tr.Wilson),
		Boot: report.NoInterval(), K: a.Trusted, N: a.Scope.Auditable} // the trusted rate is over the auditable passes
	return report.TrustAgent{Benchmark: a.Benchmark, Agent: a.Agent, Results: a.Results, RecordedPasses: a.RecordedPasses,
		RemovedD1: a.Removed.D1, RemovedD2: a.Removed.D2, RemovedD3: a.Removed.D3, RemovedD4: a.Removed.D4,
		Trusted: a.Trusted, TrustedRate: rate,
		D4: report.D4{Stable: a.D4.Stable, StableOther: a.D4.StableOther, Varied: a.D4.Varied, Insufficient: a.D4.Insufficient,
			VariedRate: report.Num(a.D4.VariedRate), Sigma2Between: report.Num(a.D4.Sigma2Between),
			Sigma2Within: report.Num(a.D4.Sigma2Within), Rho: report.Num(a.D4.Rho),
			Tasks: a.D4.Tasks, VariedRateBoot: trustInterval(a.D4.VariedRateBoot),
			PassHatK:     convert(a.D4.PassHatK, func(x trust.Num) report.Num { return report.Num(x) }),
			PassHatKBoot: convert(a.D4.PassHatKBoot, trustInterval), PassK: a.D4.PassK, PassKTasks: a.D4.PassKTasks}}
}

// trustInterval converts a trust interval ([lo, hi], nil when undefined).
func trustInterval(iv []trust.Num) report.Interval {
	if len(iv) != 2 {
		return report.NoInterval()
	}
	return interval([2]trust.Num(iv))
}
