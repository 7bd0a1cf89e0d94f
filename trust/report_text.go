package trust

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteMarkdown renders the report as Markdown tables: trusted passes per
// agent (paper Table 5), the ablation (Table 11), passes caught by exactly
// one dimension, and one table per dimension. It returns the first write
// error.
func WriteMarkdown(w io.Writer, rep Report) error {
	rows := append(append([]AgentRow{}, rep.PerAgent...), rep.Total)
	pw := &errWriter{w: w}
	pw.printf("### Trusted passes (D2 policy %s, %d repeats)\n\n", rep.D2Policy, rep.Repeats)
	pw.printf("| benchmark | agent | results | recorded passes | −D1 | −D2 | −D3 | −D4 | trusted | trusted rate [%g%% Wilson] |\n", 100*(1-rep.Alpha))
	pw.printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		pw.printf("| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", r.Benchmark, r.Agent, r.Results, r.RecordedPasses,
			r.Removed.D1, r.Removed.D2, r.Removed.D3, r.Removed.D4, r.Trusted, fmtRate(r.TrustedRate))
	}
	pw.printf("\n### Ablation (recorded passes kept)\n\n| agent | recorded | D1 | D1+D4 | all four |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		pw.printf("| %s | %d | %d | %d | %d |\n", r.Agent, r.RecordedPasses, r.Ablation.D1, r.Ablation.D1D4, r.Ablation.All)
	}
	pw.printf("\n### Recorded passes caught by exactly one dimension\n\n| agent | D1 only | D2 only | D3 only | D4 only |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		pw.printf("| %s | %d | %d | %d | %d |\n", r.Agent, r.CaughtByOne.D1, r.CaughtByOne.D2, r.CaughtByOne.D3, r.CaughtByOne.D4)
	}
	pw.printf("\n### D1 competence (all results)\n\n| agent | confirm | contradiction | upgrade | unverified |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		pw.printf("| %s | %d | %d | %d | %d |\n", r.Agent, r.D1.Confirm, r.D1.Contradiction, r.D1.Upgrade, r.D1.Unverified)
	}
	pw.printf("\n### D2 provenance (all results)\n\n| agent | clean | gamed | unconfirmed | untraceable | values | DERIVED | GIVEN | TYPED | UNGROUNDED | confessions |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		d := r.D2
		pw.printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", r.Agent, d.Clean, d.Gamed, d.Unconfirmed, d.Untraceable,
			d.Values, d.Derived, d.Given, d.Typed, d.Ungrounded, d.Confessions)
	}
	pw.printf("\n### D3 claims and lies (all results)\n\n| agent | claims correct | claims completion | no claim | lies | hard | soft |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		d := r.D3
		pw.printf("| %s | %d | %d | %d | %d | %d | %d |\n", r.Agent, d.Correct, d.Completion, d.None, d.Lies, d.Hard, d.Soft)
	}
	pw.printf("\n### D4 reliability\n\n| agent | tasks | varied rate | σ² between | σ² within | ρ | pass^k (k=1..) | passes stable / other tier / varied / insufficient | Δ̄ passes | Δ̄ varied | infra excluded |\n|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|\n")
	for _, r := range rows {
		d := r.D4
		ks := make([]string, len(d.PassHatK))
		for i, p := range d.PassHatK {
			ks[i] = fmtNum(p, 3)
		}
		pw.printf("| %s | %d | %s | %s | %s | %s | %s | %d / %d / %d / %d | %s | %s | %d |\n", r.Agent, d.Tasks, fmtNum(d.VariedRate, 3),
			fmtNum(d.Sigma2Between, 3), fmtNum(d.Sigma2Within, 3), fmtNum(d.Rho, 2), strings.Join(ks, ", "),
			d.Stable, d.StableOther, d.Varied, d.Insufficient, fmtNum(d.MeanGap, 2), fmtNum(d.MeanGapVaried, 2), d.InfraExcluded)
	}
	pw.printf("\nD1 unverified: %d results; upgrades: %d.\n", len(rep.Unverified), len(rep.Upgrades))
	return pw.err
}

func fmtNum(n Num, prec int) string {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "–"
	}
	return fmt.Sprintf("%.*f", prec, f)
}

func fmtRate(r Rate) string {
	if math.IsNaN(float64(r.Value)) {
		return "–"
	}
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*float64(r.Value), 100*float64(r.Wilson[0]), 100*float64(r.Wilson[1]))
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
