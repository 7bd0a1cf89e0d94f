package metrics

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/stats"
)

// Checklist item statuses.
const (
	StatusPass       = "pass"
	StatusFail       = "fail"
	StatusNotChecked = "not_checked" // the lake holds nothing to check it with; Reason says why
)

// ChecklistOptions configure Checklist. Zero values mean the defaults.
type ChecklistOptions struct {
	Judge              queries.JudgeCondition
	TargetFPR          float64 // 0 means 0.05
	HalfWidth          float64 // requested FPR precision (Wilson half-width); 0 means 0.05
	MinSelfConsistency float64 // 0 means 0.9
	MaxParseErrorRate  float64 // 0 means 0.05
	UncertainPolicy    string
	Alpha              float64
	Resamples          int
	Seed               uint64
	Threshold          *float64
	// AllowNotChecked lets the checklist pass with items not checked;
	// by default only all items passing is a pass.
	AllowNotChecked bool
	// Packs reads the stored evidence packs: evidence_leakage looks for the
	// agent's final message in the text of every non-claim pack. Nil leaves
	// that item not checked.
	Packs PackReader
}

// PackReader answers whether the evidence pack stored under sha shows any
// of texts (the agent's final message) to a judge; *judge.Store implements
// it. An error means the pack file cannot be read.
type PackReader interface {
	Holds(sha string, texts ...string) (bool, error)
}

func (o *ChecklistOptions) applyDefaults() {
	o.TargetFPR, o.HalfWidth = cmp.Or(o.TargetFPR, 0.05), cmp.Or(o.HalfWidth, 0.05)
	o.MinSelfConsistency, o.MaxParseErrorRate = cmp.Or(o.MinSelfConsistency, 0.9), cmp.Or(o.MaxParseErrorRate, 0.05)
}

// Item is one checklist line.
type Item struct {
	ID     string  `json:"id"`
	Title  string  `json:"title"`
	Status string  `json:"status"`
	Figure string  `json:"figure"`           // the number behind the status, readable
	Metric *Metric `json:"metric,omitempty"` // the estimate, where one applies
	Reason string  `json:"reason,omitempty"` // why it failed or was not checked
}

// ChecklistReport is the result of Checklist. Pass is true when every item
// passed (or, with AllowNotChecked, none failed).
type ChecklistReport struct {
	Judge      string         `json:"judge"`
	Condition  string         `json:"condition"`
	Params     map[string]any `json:"params"`
	Items      []Item         `json:"items"`
	Pass       bool           `json:"pass"`
	Failed     int            `json:"failed"`
	NotChecked int            `json:"not_checked"`
	Warnings   []string       `json:"warnings"`
}

// Checklist decides whether a judge under a condition is "usable as a
// training signal" (DESIGN.md): verifiers deterministic, fixtures tested,
// enough negatives, FPR upper bound within target on natural episodes,
// hard-negative FPR reported, claim sway not significant, self-consistency
// and parse errors within bounds, no leakage in evidence. Items the lake
// cannot decide are StatusNotChecked with the reason.
func Checklist(ctx context.Context, s *queries.Session, opts ChecklistOptions) (ChecklistReport, error) {
	opts.applyDefaults()
	rep, err := Run(ctx, s, Options{Judges: []string{opts.Judge.Judge}, Conditions: []string{opts.Judge.Condition},
		By: []string{ByHardness}, UncertainPolicy: opts.UncertainPolicy, Alpha: opts.Alpha, Resamples: opts.Resamples,
		Seed: opts.Seed, Threshold: opts.Threshold})
	if err != nil {
		return ChecklistReport{}, err
	}
	p := rep.Params
	out := ChecklistReport{Judge: opts.Judge.Judge, Condition: opts.Judge.Condition, Warnings: rep.Warnings,
		Params: map[string]any{"fpr_target": opts.TargetFPR, "half_width": opts.HalfWidth, "min_self_consistency": opts.MinSelfConsistency,
			"max_parse_error_rate": opts.MaxParseErrorRate, "source": p.Source, "uncertain_policy": p.UncertainPolicy,
			"alpha": p.Alpha, "bootstrap": p.Bootstrap, "seed": p.Seed, "threshold": p.Threshold,
			"claim_sway": opts.Judge.Judge + "@" + schema.ConditionClaim + " vs " + opts.Judge.Judge + "@" + schema.ConditionLastK}}
	var overall, hard *Row
	for i := range rep.Rows {
		r := &rep.Rows[i]
		switch dim, v := r.StratumKey(); {
		case dim == "":
			overall = r
		case dim == ByHardness && v == schema.HardnessHard:
			hard = r
		}
	}
	gt, err := s.MetricsGroundTruthSummary(ctx, opts.Judge, p.Source)
	if err != nil {
		return ChecklistReport{}, err
	}
	out.Items = append(out.Items, verifierItems(gt)...)
	out.Items = append(out.Items, negativesItem(overall, opts.HalfWidth, p.Alpha), fprBoundItem(overall, opts.TargetFPR), hardItem(hard))
	sway, err := claimSwayItem(ctx, s, opts, p)
	if err != nil {
		return ChecklistReport{}, err
	}
	leak, err := leakageItem(ctx, s, opts.Judge, opts.Packs)
	if err != nil {
		return ChecklistReport{}, err
	}
	out.Items = append(out.Items, sway, consistencyItem(overall, opts.MinSelfConsistency), parseItem(overall, opts.MaxParseErrorRate), leak)
	for _, it := range out.Items {
		switch it.Status {
		case StatusFail:
			out.Failed++
		case StatusNotChecked:
			out.NotChecked++
		}
	}
	out.Pass = out.Failed == 0 && (out.NotChecked == 0 || opts.AllowNotChecked)
	return out, nil
}

func verifierItems(gt queries.GroundTruthSummary) []Item {
	det := Item{ID: "verifiers_deterministic", Title: "verifiers deterministic (same answer twice)",
		Figure: fmt.Sprintf("%d of %d ground-truth rows (%d verifiers) marked deterministic; %d marked not, %d unrecorded",
			gt.Deterministic, gt.Rows, gt.Verifiers, gt.Nondeterministic, gt.Unknown)}
	switch {
	case gt.Rows == 0:
		det.Status, det.Reason = StatusFail, "no ground truth"
	case gt.Nondeterministic > 0:
		det.Status, det.Reason = StatusFail, "some verifiers gave different answers on the same snapshot"
	case gt.Unknown > 0:
		det.Status = StatusNotChecked
		det.Reason = fmt.Sprintf("not recorded: %d of %d ground-truth rows carry no gt.json \"deterministic\" (run `trustlake verify`, which checks it)", gt.Unknown, gt.Rows)
	default:
		det.Status = StatusPass
	}
	fix := Item{ID: "verifier_fixtures", Title: "verifiers tested on pass and fail fixtures",
		Figure: fmt.Sprintf("%d of %d verifiers passed a recorded self-test", gt.Tested, gt.Verifiers)}
	switch {
	case gt.SelfTests == 0:
		fix.Status = StatusNotChecked
		fix.Reason = "the lake records no self-test results: run `trustlake tasks check --record` on the task library"
	case gt.Verifiers == 0 || gt.Tested < gt.Verifiers:
		fix.Status = StatusFail
		fix.Reason = "some verifiers have no passing self-test with both pass and fail fixtures " +
			"(a changed verifier has a new verifier_sha256 and needs a new `tasks check --record`)"
	default:
		fix.Status = StatusPass
	}
	return []Item{det, fix}
}

func negativesItem(r *Row, halfWidth, alpha float64) Item {
	it := Item{ID: "enough_negatives", Title: fmt.Sprintf("enough GT negatives for FPR ±%.3g", halfWidth)}
	if r == nil || r.NNeg == 0 {
		it.Status, it.Figure, it.Reason = StatusFail, "0 negatives", "no ground-truth failures among the judged episodes"
		return it
	}
	need := stats.NegativesForHalfWidth(r.FPR.Value, halfWidth, alpha)
	half := stats.WilsonHalfWidth(r.FPR.Value, r.NNeg, alpha)
	it.Figure = fmt.Sprintf("%d negatives; %d needed at FPR %.3f (Wilson half-width now %.3f)", r.NNeg, need, r.FPR.Value, half)
	it.failIf(need == 0 || r.NNeg < need,
		"too few negatives for the requested precision (trustlake plan --fpr P --half-width W)")
	return it
}

func fprBoundItem(r *Row, target float64) Item {
	it := Item{ID: "fpr_upper_bound", Title: fmt.Sprintf("FPR upper bound <= %.3g on natural episodes", target)}
	if r == nil || math.IsNaN(r.FPR.Value) {
		it.Status, it.Figure, it.Reason = StatusFail, "FPR undefined", "no ground-truth negatives"
		return it
	}
	m := r.FPR
	it.Metric = &m
	upper := m.Wilson[1]
	if !math.IsNaN(m.Boot[1]) {
		upper = max(upper, m.Boot[1])
	}
	it.Figure = fmt.Sprintf("FPR %.3f, Wilson %s, bootstrap %s; upper bound %.3f", m.Value, interval(m.Wilson), interval(m.Boot), upper)
	it.failIf(upper > target, "the larger of the Wilson and bootstrap upper bounds exceeds the target")
	return it
}

func hardItem(r *Row) Item {
	it := Item{ID: "hard_negative_fpr", Title: "hard-negative FPR reported with its interval"}
	if r == nil || r.NNeg == 0 {
		it.Status, it.Figure = StatusFail, "0 hard negatives"
		it.Reason = "no natural GT failure in F-PARTIAL, F-UNCOMMITTED, F-WRONGTARGET or F-SIDEEFFECT: the hard-negative FPR cannot be reported"
		return it
	}
	m := r.FPR
	it.Metric = &m
	it.Status = StatusPass
	it.Figure = fmt.Sprintf("FPR %.3f on %d hard negatives, Wilson %s, bootstrap %s", m.Value, r.NNeg, interval(m.Wilson), interval(m.Boot))
	return it
}

func claimSwayItem(ctx context.Context, s Engine, opts ChecklistOptions, p Params) (Item, error) {
	a := queries.JudgeCondition{Judge: opts.Judge.Judge, Condition: schema.ConditionClaim}
	b := queries.JudgeCondition{Judge: opts.Judge.Judge, Condition: schema.ConditionLastK}
	it := Item{ID: "claim_sway", Title: fmt.Sprintf("claim sway not significant (%s vs %s)", a.Condition, b.Condition)}
	cmp, err := Compare(ctx, s, CompareOptions{A: a, B: b, Source: p.Source, UncertainPolicy: p.UncertainPolicy, Alpha: p.Alpha,
		Resamples: p.Bootstrap, Seed: p.Seed, Threshold: opts.Threshold})
	if errors.Is(err, ErrUnknown) {
		it.Status, it.Reason = StatusNotChecked, fmt.Sprintf("the judge lacks verdicts under both conditions: %v", err)
		return it, nil
	}
	if err != nil {
		return it, err
	}
	n := cmp.Negatives
	it.Metric = &n.Diff
	it.Figure = fmt.Sprintf("FPR difference %.3f, bootstrap %s; b=%d c=%d of %d paired negatives, McNemar p=%.3g",
		n.Diff.Value, interval(n.Diff.Boot), n.B, n.C, n.NPairs, n.McNemar)
	switch {
	case n.NPairs == 0:
		it.Status, it.Reason = StatusNotChecked, "no negative judged under both conditions"
	case n.McNemar < p.Alpha:
		it.Status, it.Reason = StatusFail, fmt.Sprintf("the agent's claim changes the verdict (p < %.3g)", p.Alpha)
	default:
		it.Status = StatusPass
	}
	return it, nil
}

func consistencyItem(r *Row, minimum float64) Item {
	it := Item{ID: "self_consistency", Title: fmt.Sprintf("self-consistency >= %.3g", minimum)}
	if r == nil || math.IsNaN(r.SelfConsistency.Value) {
		it.Status, it.Figure, it.Reason = StatusFail, "undefined", "no episode has two valid runs: repeat each judge call (3 runs)"
		return it
	}
	m := r.SelfConsistency
	it.Metric = &m
	it.Figure = fmt.Sprintf("%.3f of episodes with unanimous runs, Wilson %s", m.Value, interval(m.Wilson))
	it.failIf(m.Value < minimum, "runs of the same call disagree too often")
	return it
}

func parseItem(r *Row, maximum float64) Item {
	it := Item{ID: "parse_error_rate", Title: fmt.Sprintf("parse-error rate <= %.3g", maximum)}
	if r == nil || math.IsNaN(r.ParseErrorRate.Value) {
		it.Status, it.Figure, it.Reason = StatusFail, "undefined", "no runs"
		return it
	}
	m := r.ParseErrorRate
	it.Metric = &m
	it.Figure = fmt.Sprintf("%d of %d runs (%.3f), Wilson %s", r.NParseError, r.NRuns, m.Value, interval(m.Wilson))
	it.failIf(m.Value > maximum, "too many unreadable judge replies")
	return it
}

// failIf sets the item's status: fail with the reason when bad, else pass.
func (it *Item) failIf(bad bool, reason string) {
	it.Status = StatusPass
	if bad {
		it.Status, it.Reason = StatusFail, reason
	}
}

// interval renders [lo, hi] with three decimals, or "null".
func interval(iv [2]float64) string {
	if math.IsNaN(iv[0]) || math.IsNaN(iv[1]) {
		return "null"
	}
	return fmt.Sprintf("[%.3f, %.3f]", iv[0], iv[1])
}
