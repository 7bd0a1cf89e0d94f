package trust

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// WriteMarkdown renders the report as Markdown tables: trusted passes per
// agent (paper Table 5), the ablation (Table 11), passes caught by exactly
// one dimension, and one table per dimension. It returns the first write
// error.
func WriteMarkdown(w io.Writer, rep Report) error {
	rows := append(append([]AgentRow{}, rep.PerAgent...), rep.Total)
	pw := &errWriter{w: w}
	for _, n := range rep.Notices {
		pw.printf("> Notice: %s\n", n)
	}
	for _, n := range rep.Warnings {
		pw.printf("> Warning: %s\n", n)
	}
	if len(rep.Notices)+len(rep.Warnings) > 0 {
		pw.printf("\n")
	}
	scope := "Scope: " + rep.Total.Scope.Line + ".\n\n"
	pw.printf("### Trusted passes (%s)\n\n%s", ParamsLine(rep), scope)
	pw.printf("| benchmark | agent | results | recorded passes | auditable | −D1 | −D2 | −D3 | −D4 | trusted | trusted rate [%g%% Wilson] |\n", 100*(1-rep.Alpha))
	pw.printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	removed := func(d string, n int) string { // "–" for a dimension left out of the conjunction
		if !slices.Contains(rep.Dimensions, d) {
			return "–"
		}
		return strconv.Itoa(n)
	}
	for _, r := range rows {
		pw.printf("| %s | %s | %d | %d | %d | %s | %s | %s | %s | %d | %s |\n", r.Benchmark, r.Agent, r.Results, r.RecordedPasses, r.Scope.Auditable,
			removed("D1", r.Removed.D1), removed("D2", r.Removed.D2), removed("D3", r.Removed.D3), removed("D4", r.Removed.D4), r.Trusted, fmtRate(r.TrustedRate))
	}
	pw.printf("\nScope per row:\n\n")
	for _, r := range rows {
		pw.printf("- %s / %s: %s\n", r.Benchmark, r.Agent, r.Scope.Line)
	}
	allResults := fmt.Sprintf("Scope: all %d results, whatever the conjunction (recorded passes: %d; auditable on %s: %d).\n\n",
		rep.Total.Results, rep.Total.RecordedPasses, strings.Join(rep.Dimensions, ","), rep.Total.Scope.Auditable)
	pw.printf("\n### Checks per dimension (recorded passes: passed / failed / not checkable)\n\n%s", scope)
	pw.printf("| agent | D1 | D2 | D3 | D4 |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		c := r.Checks
		pw.printf("| %s | %s | %s | %s | %s |\n", r.Agent, fmtChecks(c.D1), fmtChecks(c.D2), fmtChecks(c.D3), fmtChecks(c.D4))
	}
	pw.printf("\n### Ablation (auditable passes kept)\n\n%s| agent | auditable | D1 | D1+D4 | all chosen |\n|---|---:|---:|---:|---:|\n", scope)
	for _, r := range rows {
		pw.printf("| %s | %d | %d | %d | %d |\n", r.Agent, r.Scope.Auditable, r.Ablation.D1, r.Ablation.D1D4, r.Ablation.All)
	}
	pw.printf("\n### Auditable passes caught by exactly one dimension\n\n%s| agent | D1 only | D2 only | D3 only | D4 only |\n|---|---:|---:|---:|---:|\n", scope)
	for _, r := range rows {
		pw.printf("| %s | %s | %s | %s | %s |\n", r.Agent, removed("D1", r.CaughtByOne.D1), removed("D2", r.CaughtByOne.D2),
			removed("D3", r.CaughtByOne.D3), removed("D4", r.CaughtByOne.D4))
	}
	pw.printf("\n### D1 competence (all results)\n\n%s| agent | confirm | contradiction | upgrade | unverified |\n|---|---:|---:|---:|---:|\n", allResults)
	for _, r := range rows {
		pw.printf("| %s | %d | %d | %d | %d |\n", r.Agent, r.D1.Confirm, r.D1.Contradiction, r.D1.Upgrade, r.D1.Unverified)
	}
	pw.printf("\n### D2 provenance (all results)\n\n%s| agent | clean | gamed | unconfirmed | untraceable | values | DERIVED | GIVEN | TYPED | UNGROUNDED | confessions |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", allResults)
	for _, r := range rows {
		d := r.D2
		pw.printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", r.Agent, d.Clean, d.Gamed, d.Unconfirmed, d.Untraceable,
			d.Values, d.Derived, d.Given, d.Typed, d.Ungrounded, d.Confessions)
	}
	pw.printf("\n### D3 claims and lies (all results)\n\n%s| agent | claims correct | claims completion | no claim | lies | hard | soft |\n|---|---:|---:|---:|---:|---:|---:|\n", allResults)
	for _, r := range rows {
		d := r.D3
		pw.printf("| %s | %d | %d | %d | %d | %d | %d |\n", r.Agent, d.Correct, d.Completion, d.None, d.Lies, d.Hard, d.Soft)
	}
	pw.printf("\n### D4 reliability (infra policy %s)\n\n%s| agent | tasks | varied rate {boot} | σ² between | σ² within | ρ | pass^k (k=1..K) {boot} | pass^k tasks (≥ K runs) / left out | passes stable / other tier / varied / insufficient | Δ̄ passes | Δ̄ varied | infra marked |\n|---|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|\n", rep.InfraPolicy, allResults)
	for _, r := range rows {
		d := r.D4
		ks := make([]string, len(d.PassHatK))
		for i, p := range d.PassHatK {
			ks[i] = fmtNum(p, 3) + fmtBoot(d.PassHatKBoot[i])
		}
		pw.printf("| %s | %d | %s | %s | %s | %s | %s | %d (K=%d) / %d | %d / %d / %d / %d | %s | %s | %d |\n", r.Agent, d.Tasks, fmtNum(d.VariedRate, 3)+fmtBoot(d.VariedRateBoot),
			fmtNum(d.Sigma2Between, 3), fmtNum(d.Sigma2Within, 3), fmtNum(d.Rho, 2), strings.Join(ks, ", "), d.PassKTasks, d.PassK, d.PassKLeftOut,
			d.Stable, d.StableOther, d.Varied, d.Insufficient, fmtNum(d.MeanGap, 2), fmtNum(d.MeanGapVaried, 2), d.InfraExcluded)
	}
	pw.printf("\nD1 unverified: %d results; upgrades: %d.\n", len(rep.Unverified), len(rep.Upgrades))
	return pw.err
}

// ParamsLine names what a report was computed with: the conjunction (and
// whether it is the default), the D2 and infrastructure policies and the
// repeats. Every rendering prints it.
func ParamsLine(rep Report) string {
	dims := cmp.Or(strings.Join(rep.Dimensions, ","), "none")
	how := "chosen"
	if rep.DimensionsDefault {
		how = "default: all that apply"
	}
	return fmt.Sprintf("dimensions %s (%s), D2 policy %s, infra policy %s, %d repeats", dims, how, rep.D2Policy, rep.InfraPolicy, rep.Repeats)
}

func fmtChecks(c CheckCounts) string {
	return fmt.Sprintf("%d / %d / %d", c.Passed, c.Failed, c.NotCheckable)
}

func fmtNum(n Num, prec int) string {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "–"
	}
	return fmt.Sprintf("%.*f", prec, f)
}

// fmtBoot renders a bootstrap interval as " {lo, hi}", or "" when
// undefined.
func fmtBoot(iv []Num) string {
	if len(iv) != 2 {
		return ""
	}
	return fmt.Sprintf(" {%s, %s}", fmtNum(iv[0], 3), fmtNum(iv[1], 3))
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
