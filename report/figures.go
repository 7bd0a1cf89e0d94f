package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Figure is one named number of a report, with labels, as gates see it:
// fields value, wilson_lo, wilson_hi, boot_lo, boot_hi, k, n and, with a
// baseline, baseline, delta, p (raw), p_adjusted, significant and
// regression (1 or 0, from the adjusted p).
type Figure struct {
	Name   string
	Labels map[string]string
	Fields map[string]Num
}

// String renders name{label="v",...}.
func (f Figure) String() string {
	return f.Name + labelString(f.Labels)
}

func labelString(labels map[string]string) string {
	if len(labels) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(labels))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, labels[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// figureNames are the figure names gates know, sorted (docs/nightly.md
// lists each one's labels).
var figureNames = []string{
	"alpha_human", "alpha_judges", "alpha_runs", "brier", "checklist_failed", "claim_sway", "ece",
	"ece_equal_mass", "episodes_without_gt", "fdr", "fpr", "fpr_category", "fpr_hardness", "fpr_source",
	"inflation", "kappa", "lake_damaged", "lake_problems", "needs_review", "nondeterministic_verifiers",
	"parse_error_rate", "regressions", "rm_heldout_fpr", "rm_heldout_tpr", "roc_auc", "self_consistency",
	"selftest_failures", "significant_changes", "tpr", "trusted_rate", "uncertain_rate",
}

// FigureNames returns every figure name gates know, sorted.
func FigureNames() []string { return slices.Clone(figureNames) }

// fieldNames are the fields a gate may read.
var fieldNames = []string{"value", "wilson_lo", "wilson_hi", "boot_lo", "boot_hi", "k", "n",
	"baseline", "delta", "p", "p_adjusted", "significant", "regression"}

// moments say how a figure is tested against a baseline in two samples:
// a proportion K of N (two-proportion z) or the mean of per-episode values
// with Sum and SumSq over N (Welch z).
type moments struct {
	tested     bool // the change is tested (proportions and inflation)
	proportion bool
	sum, sumSq float64
	n          int
}

// namedEstimate is an Estimate of the document with its figure name and
// labels.
type namedEstimate struct {
	name   string
	labels map[string]string
	e      *Estimate
	m      moments
	// worse is +1 when an increase is bad, -1 when a decrease is bad, 0
	// when only the distance from zero matters (inflation).
	worse int
	// jc is JUDGE@CONDITION for figures a paired test can cover.
	jc string
}

func (n namedEstimate) key() string { return n.name + labelString(n.labels) }

func prop(e *Estimate) moments {
	return moments{tested: true, proportion: true, sum: float64(e.K), sumSq: float64(e.K), n: e.N}
}

// untested marks a figure whose change is shown but not tested.
func untested(m moments) moments {
	m.tested = false
	return m
}

// estimates lists the document's estimates in a stable order.
func (d *Document) estimates() []namedEstimate {
	var out []namedEstimate
	for i := range d.Judges {
		r := &d.Judges[i]
		jc := map[string]string{"judge": r.Judge, "condition": r.Condition}
		n := r.TP + r.FP + r.TN + r.FN
		key := r.Judge + "@" + r.Condition
		out = append(out,
			namedEstimate{"fpr", jc, &r.FPR, prop(&r.FPR), +1, key},
			namedEstimate{"fdr", jc, &r.FDR, prop(&r.FDR), +1, ""},
			namedEstimate{"tpr", jc, &r.TPR, prop(&r.TPR), -1, key},
			namedEstimate{"inflation", jc, &r.Inflation, moments{tested: true, sum: float64(r.FP - r.FN), sumSq: float64(r.FP + r.FN), n: n}, 0, key},
			namedEstimate{"kappa", jc, &r.Kappa, moments{}, -1, ""},
			namedEstimate{"self_consistency", jc, &r.SelfConsistency, prop(&r.SelfConsistency), -1, ""},
			namedEstimate{"uncertain_rate", jc, &r.UncertainRate, prop(&r.UncertainRate), +1, ""},
			namedEstimate{"parse_error_rate", jc, &r.ParseErrorRate, prop(&r.ParseErrorRate), +1, ""},
		)
	}
	for i := range d.Strata {
		s := &d.Strata[i]
		labels := map[string]string{"judge": s.Judge, "condition": s.Condition, s.By: s.Value}
		out = append(out, namedEstimate{"fpr_" + s.By, labels, &s.FPR, prop(&s.FPR), +1, ""})
	}
	for i := range d.ClaimSway {
		s := &d.ClaimSway[i]
		out = append(out, namedEstimate{"claim_sway", map[string]string{"judge": s.Judge}, &s.Sway, moments{}, +1, ""})
	}
	for i := range d.RewardModels {
		r := &d.RewardModels[i]
		jc := map[string]string{"judge": r.Judge, "condition": r.Condition}
		out = append(out,
			namedEstimate{"rm_heldout_fpr", jc, &r.HeldOutFPR, untested(prop(&r.HeldOutFPR)), +1, ""},
			namedEstimate{"rm_heldout_tpr", jc, &r.HeldOutTPR, untested(prop(&r.HeldOutTPR)), -1, ""},
			namedEstimate{"roc_auc", jc, &r.AUC, moments{}, -1, ""},
		)
	}
	for i := range d.Calibration {
		c := &d.Calibration[i]
		jc := map[string]string{"judge": c.Judge, "condition": c.Condition}
		out = append(out,
			namedEstimate{"brier", jc, &c.Brier, moments{}, +1, ""},
			namedEstimate{"ece", jc, &c.ECEWidth, moments{}, +1, ""},
			namedEstimate{"ece_equal_mass", jc, &c.ECEMass, moments{}, +1, ""})
	}
	if a := d.Agreement; a != nil {
		for i := range a.Runs {
			r := &a.Runs[i]
			out = append(out, namedEstimate{"alpha_runs", map[string]string{"judge": r.Judge, "condition": r.Condition}, &r.Alpha, moments{}, -1, ""})
		}
		for i := range a.Judges {
			r := &a.Judges[i]
			out = append(out, namedEstimate{"alpha_judges", map[string]string{"condition": r.Condition}, &r.Alpha, moments{}, -1, ""})
		}
		if a.Human != nil {
			out = append(out, namedEstimate{"alpha_human", map[string]string{}, &a.Human.Alpha, moments{}, -1, ""})
		}
	}
	if t := d.Trust; t != nil {
		for i := range len(t.Agents) + 1 { // the agents, then the total
			a := &t.Total
			if i < len(t.Agents) {
				a = &t.Agents[i]
			}
			e := &a.TrustedRate
			out = append(out, namedEstimate{"trusted_rate", map[string]string{"benchmark": a.Benchmark, "agent": a.Agent}, e, prop(e), -1, ""})
		}
	}
	return out
}

// Figures returns every figure of the document, as gates see them.
func (d *Document) Figures() []Figure {
	var out []Figure
	for _, ne := range d.estimates() {
		e := ne.e
		f := scalar(ne.name, ne.labels, e.Value)
		f.Fields["wilson_lo"], f.Fields["wilson_hi"], f.Fields["boot_lo"], f.Fields["boot_hi"] = e.Wilson[0], e.Wilson[1], e.Boot[0], e.Boot[1]
		if e.N > 0 {
			f.Fields["k"], f.Fields["n"] = Num(e.K), Num(e.N)
		}
		if c := e.Change; c != nil {
			f.Fields["baseline"], f.Fields["delta"], f.Fields["p"], f.Fields["p_adjusted"] = c.Baseline, c.Delta, c.P, c.PAdjusted
			f.Fields["significant"], f.Fields["regression"] = boolNum(c.Significant), boolNum(c.Regression)
		}
		out = append(out, f)
	}
	for _, c := range d.Checklists {
		out = append(out, scalar("checklist_failed", map[string]string{"judge": c.Judge, "condition": c.Condition}, Num(c.Failed)))
	}
	h := d.Health
	review := 0
	for _, r := range h.NeedsReview {
		review += r.Episodes
	}
	out = append(out,
		scalar("regressions", nil, Num(d.Summary.Regressions)),
		scalar("significant_changes", nil, Num(d.Summary.SignificantChanges)),
		scalar("lake_problems", nil, Num(len(h.Lake.Problems))),
		scalar("lake_damaged", nil, boolNum(h.Lake.Damaged)),
		scalar("selftest_failures", nil, Num(h.Verifiers.SelfTestFailures)),
		scalar("nondeterministic_verifiers", nil, Num(h.Verifiers.Nondeterministic)),
		scalar("episodes_without_gt", nil, Num(h.Verifiers.WithoutGT)),
		scalar("needs_review", nil, Num(review)),
	)
	return out
}

// scalar is a figure with this value and every other field undefined.
func scalar(name string, labels map[string]string, v Num) Figure {
	f := Figure{Name: name, Labels: labels, Fields: map[string]Num{}}
	for _, k := range fieldNames {
		f.Fields[k] = NaN()
	}
	f.Fields["value"] = v
	return f
}

func boolNum(b bool) Num {
	if b {
		return 1
	}
	return 0
}
