package trust

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// Gate statuses in the D1 reasons.
const (
	gatePassed       = "passed"
	gateFailed       = "failed"
	gateUnverifiable = "unverifiable"
)

// GateResult is one grader gate as re-run by D1.
type GateResult struct {
	ID     string `json:"id"`
	Type   string `json:"type"`   // schema.GateCritical, ...
	Status string `json:"status"` // passed | failed | unverifiable
	Detail string `json:"detail,omitempty"`
}

type d1Result struct {
	outcome    string
	regraded   *bool
	failedGate *string
	gates      []GateResult
	reason     string
	// soft is set when the re-graded failure is a shortfall without damage
	// (no critical state change went wrong); D3 uses it for lie severity.
	soft bool
}

// auditD1 re-grades one record. Decision rules (documented in README):
//   - infrastructure failure, or no grader that runs offline → unverified;
//   - a recomputed gate failed → re-graded fail: contradiction of a recorded
//     pass, confirmation of a recorded fail;
//   - every recomputed gate passed → confirmation of a recorded pass; a
//     recorded fail whose failing check cannot be recomputed is unverified;
//   - a verifier re-run (Regrade) decides directly, with the upgrade rule.
func auditD1(r *Record, opts Options) d1Result {
	res := &r.Result
	if res.Infra != nil {
		return d1Result{outcome: schema.D1Unverified, reason: "infrastructure failure: " + *res.Infra}
	}
	if r.Regrade != nil {
		return d1FromRegrade(res.RecordedPass, r.Regrade)
	}
	var kind struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal([]byte(res.Grader), &kind)
	switch kind.Kind {
	case schema.GraderTauBench:
		var g schema.TauBenchGrader
		if err := json.Unmarshal([]byte(res.Grader), &g); err != nil {
			return d1Result{outcome: schema.D1Unverified, reason: fmt.Sprintf("read grader: %v", err)}
		}
		return d1TauBench(r, &g, opts)
	case schema.GraderOutputs:
		var g schema.OutputsGrader
		if err := json.Unmarshal([]byte(res.Grader), &g); err != nil {
			return d1Result{outcome: schema.D1Unverified, reason: fmt.Sprintf("read grader: %v", err)}
		}
		texts := assistantTexts(r)
		if len(texts) == 0 {
			return d1Result{outcome: schema.D1Unverified, reason: "outputs not saved: no agent reply to re-grade"}
		}
		gate := outputsGate(g.Outputs, texts)
		return decide(res.RecordedPass, []GateResult{gate}, false, "")
	}
	return d1Result{outcome: schema.D1Unverified, reason: fmt.Sprintf("grader cannot run offline (kind %q)", kind.Kind)}
}

// decide turns recomputed gates into an outcome. unverifiedFail explains why
// a recorded failure whose recomputed gates all pass stays unverified.
func decide(recordedPass bool, gates []GateResult, soft bool, unverifiedFail string) d1Result {
	d := d1Result{gates: gates}
	computed, failed := 0, []string{}
	for _, g := range gates {
		switch g.Status {
		case gateFailed:
			computed++
			failed = append(failed, g.ID)
		case gatePassed:
			computed++
		}
	}
	if computed == 0 {
		d.outcome, d.reason = schema.D1Unverified, "no gate of the grader can be recomputed offline"
		return d
	}
	if len(failed) > 0 {
		d.regraded, d.failedGate, d.soft = new(false), new(mostSevere(gates)), soft
		if recordedPass {
			d.outcome = schema.D1Contradiction
			d.reason = "recorded pass, re-graded fail: " + strings.Join(failed, ", ")
		} else {
			d.outcome = schema.D1Confirm
			d.reason = "recorded fail confirmed: " + strings.Join(failed, ", ")
		}
		return d
	}
	if recordedPass {
		d.regraded, d.outcome = new(true), schema.D1Confirm
		d.reason = "recorded pass confirmed by every recomputable gate"
		if unv := unverifiableIDs(gates); unv != "" {
			d.reason += " (not recomputable: " + unv + ")"
		}
		return d
	}
	d.outcome, d.reason = schema.D1Unverified, cmp.Or(unverifiedFail, "recorded fail, but every recomputable gate passes")
	return d
}

func unverifiableIDs(gates []GateResult) string {
	var ids []string
	for _, g := range gates {
		if g.Status == gateUnverifiable {
			ids = append(ids, g.ID)
		}
	}
	return strings.Join(ids, ", ")
}

// mostSevere returns the type of the most severe failed gate (severity
// priority: critical, process, administrative; an untyped gate counts as
// critical so that a real failure is never masked).
func mostSevere(gates []GateResult) string {
	best := len(schema.GateTypes)
	for _, g := range gates {
		if g.Status != gateFailed {
			continue
		}
		best = min(best, max(0, slices.Index(schema.GateTypes, g.Type))) // untyped: critical
	}
	if best == len(schema.GateTypes) {
		return schema.GateCritical
	}
	return schema.GateTypes[best]
}

// d1FromRegrade decides D1 from a verifier re-run, including the upgrade
// rule: a recorded and re-graded fail becomes an upgrade only when every
// failed gate is administrative and unrequested and the values match the
// reference (the Auditor then refuses the upgrade if D3 confirms a lie).
func d1FromRegrade(recordedPass bool, rg *Regrade) d1Result {
	if rg.Err != "" {
		return d1Result{outcome: schema.D1Unverified, reason: "grader cannot run offline: " + rg.Err}
	}
	gates := make([]GateResult, len(rg.Gates))
	anyFailed, critical := false, false
	for i, g := range rg.Gates {
		st := gatePassed
		if !g.Passed {
			st, anyFailed = gateFailed, true
		}
		typ := cmp.Or(g.Type, schema.GateCritical)
		if !g.Passed && typ == schema.GateCritical {
			critical = true
		}
		gates[i] = GateResult{ID: g.ID, Type: typ, Status: st}
	}
	pass := rg.Pass && !anyFailed
	d := d1Result{regraded: &pass, gates: gates}
	if !pass {
		d.failedGate = new(mostSevere(gates))
		d.soft = !critical && (anyFailed || (rg.Score != nil && *rg.Score > 0))
	}
	switch {
	case recordedPass == pass:
		d.outcome = schema.D1Confirm
		d.reason = fmt.Sprintf("verifier re-run agrees (pass=%v)", pass)
	case recordedPass:
		d.outcome = schema.D1Contradiction
		d.reason = "recorded pass, verifier re-run fails"
		if d.failedGate != nil {
			d.reason += " (" + *d.failedGate + " gate)"
		}
	default:
		d.outcome = schema.D1Contradiction
		d.reason = "recorded fail, verifier re-run passes"
	}
	if !recordedPass && !pass && upgradable(rg) {
		d.outcome = schema.D1Upgrade
		d.reason = "only unrequested administrative defects; values match the reference"
	}
	return d
}

func upgradable(rg *Regrade) bool {
	if rg.ValuesMatch == nil || !*rg.ValuesMatch {
		return false
	}
	failed := 0
	for _, g := range rg.Gates {
		if g.Passed {
			continue
		}
		failed++
		if g.Type != schema.GateAdministrative || slices.Contains(rg.Requested, g.ID) {
			return false
		}
	}
	return failed > 0
}

// RegradeFromGroundTruth turns the lake's ground truth of one episode (the
// task verifier re-run on the saved final state, one row per verifier
// version) into a Regrade for D1. It returns nil when gts is empty (D1
// then falls back to Result.Grader). A verifier marked non-deterministic,
// verifiers that disagree on pass, or unreadable gates give a Regrade with
// Err set, so D1 reports the result unverified.
func RegradeFromGroundTruth(gts []schema.GroundTruth) *Regrade {
	if len(gts) == 0 {
		return nil
	}
	for _, g := range gts {
		if g.Deterministic != nil && !*g.Deterministic {
			return &Regrade{Err: fmt.Sprintf("verifier %.12s is not deterministic", g.VerifierSHA256)}
		}
		if g.Pass != gts[0].Pass {
			return &Regrade{Err: fmt.Sprintf("%d verifier versions disagree on pass", len(gts))}
		}
	}
	g := gts[0]
	rg := &Regrade{Pass: g.Pass, Score: g.Score}
	if g.Gates != "" && g.Gates != "null" {
		if err := json.Unmarshal([]byte(g.Gates), &rg.Gates); err != nil {
			return &Regrade{Err: fmt.Sprintf("read gates of verifier %.12s: %v", g.VerifierSHA256, err)}
		}
	}
	return rg
}
