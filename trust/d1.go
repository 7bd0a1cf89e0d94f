package trust

import (
	"encoding/json"
	"fmt"
	"reflect"
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
		f := false
		ft := mostSevere(gates)
		d.regraded, d.failedGate, d.soft = &f, &ft, soft
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
		t := true
		d.regraded, d.outcome = &t, schema.D1Confirm
		d.reason = "recorded pass confirmed by every recomputable gate"
		if unv := unverifiableIDs(gates); unv != "" {
			d.reason += " (not recomputable: " + unv + ")"
		}
		return d
	}
	d.outcome, d.reason = schema.D1Unverified, unverifiedFail
	if d.reason == "" {
		d.reason = "recorded fail, but every recomputable gate passes"
	}
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
		rank := 0
		for i, t := range schema.GateTypes {
			if g.Type == t {
				rank = i
			}
		}
		if rank < best {
			best = rank
		}
	}
	if best == len(schema.GateTypes) {
		return schema.GateCritical
	}
	return schema.GateTypes[best]
}

// d1FromRegrade decides D1 from a verifier re-run, including the upgrade
// rule: a recorded and re-graded fail becomes an upgrade only when every
// failed gate is administrative and unrequested and the values match the
// reference (Audit then refuses the upgrade if D3 confirms a lie).
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
		typ := g.Type
		if typ == "" {
			typ = schema.GateCritical
		}
		if !g.Passed && typ == schema.GateCritical {
			critical = true
		}
		gates[i] = GateResult{ID: g.ID, Type: typ, Status: st}
	}
	pass := rg.Pass && !anyFailed
	d := d1Result{regraded: &pass, gates: gates}
	if !pass {
		ft := mostSevere(gates)
		d.failedGate = &ft
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
	requested := map[string]bool{}
	for _, id := range rg.Requested {
		requested[id] = true
	}
	failed := 0
	for _, g := range rg.Gates {
		if g.Passed {
			continue
		}
		failed++
		if g.Type != schema.GateAdministrative || requested[g.ID] {
			return false
		}
	}
	return failed > 0
}

// assistantTexts returns the agent's replies (assistant messages with text);
// without a trajectory, the final message alone.
func assistantTexts(r *Record) []string {
	var out []string
	for _, a := range r.Actions {
		if a.Role != nil && *a.Role == "assistant" && a.Text != nil && *a.Text != "" {
			out = append(out, *a.Text)
		}
	}
	if len(r.Actions) == 0 && r.Result.FinalMessage != nil {
		out = append(out, *r.Result.FinalMessage)
	}
	return out
}

// outputsGate checks that every required output appears in some reply,
// case-insensitively with commas removed (τ-bench's rule).
func outputsGate(outputs, texts []string) GateResult {
	g := GateResult{ID: "outputs", Type: schema.GateCritical, Status: gatePassed}
	norm := make([]string, len(texts))
	for i, t := range texts {
		norm[i] = strings.ToLower(strings.ReplaceAll(t, ",", ""))
	}
	var missing []string
	for _, o := range outputs {
		lo := strings.ToLower(o)
		found := false
		for _, t := range norm {
			if strings.Contains(t, lo) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, o)
		}
	}
	if len(missing) > 0 {
		g.Status, g.Detail = gateFailed, "missing from the agent's replies: "+strings.Join(missing, ", ")
	}
	return g
}

// d1TauBench recomputes τ-bench's reward from the saved trajectory: the
// outputs check exactly, the database check through the write tool calls
// (gold writes vs the agent's successful writes, order-insensitive; the
// final database hash itself needs the environment and is unverifiable).
func d1TauBench(r *Record, g *schema.TauBenchGrader, opts Options) d1Result {
	var gates []GateResult
	outputsFailed := false
	if len(g.Outputs) > 0 {
		texts := assistantTexts(r)
		if len(texts) == 0 {
			gates = append(gates, GateResult{ID: "outputs", Type: schema.GateCritical, Status: gateUnverifiable, Detail: "no agent reply saved"})
		} else {
			og := outputsGate(g.Outputs, texts)
			outputsFailed = og.Status == gateFailed
			gates = append(gates, og)
		}
	}
	actionsFailed := false
	if len(r.Actions) == 0 {
		gates = append(gates, GateResult{ID: "actions", Type: schema.GateCritical, Status: gateUnverifiable, Detail: "trajectory not saved"})
	} else {
		ag := actionsGate(g.Actions, agentWrites(r.Actions, opts.ReadOnlyTools), opts.ReadOnlyTools)
		actionsFailed = ag.Status == gateFailed
		gates = append(gates, ag)
	}
	gates = append(gates, GateResult{ID: "db_hash", Type: schema.GateCritical, Status: gateUnverifiable,
		Detail: "the final database state needs the τ-bench environment; the actions gate stands in for it"})
	why := "recorded fail lies in the database check, which cannot be re-run offline"
	if !g.Finished {
		why = "run ended without a reward (step limit) and every recomputable gate passes"
	}
	return decide(r.Result.RecordedPass, gates, outputsFailed && !actionsFailed, why)
}

// toolCall is one agent tool call with the success of its execution.
type toolCall struct {
	name   string
	args   any
	failed bool // the tool answered with an error, so the state did not change
	step   int64
}

// agentWrites returns the agent's state-changing tool calls that succeeded.
// Tool outputs are paired with calls in order (τ-bench logs may reuse call
// ids); an output starting with "Error" marks the call as failed.
func agentWrites(acts []schema.Action, readOnly []string) []toolCall {
	var calls []toolCall
	next := 0 // first call still waiting for its output
	for _, a := range acts {
		role := ""
		if a.Role != nil {
			role = *a.Role
		}
		switch {
		case role == "assistant" && a.ToolName != nil && a.Arguments != nil:
			names := strings.Split(*a.ToolName, ",")
			raws := []json.RawMessage{json.RawMessage(*a.Arguments)}
			if len(names) > 1 && json.Unmarshal([]byte(*a.Arguments), &raws) != nil {
				raws = nil
			}
			for i, n := range names {
				var v any
				if i < len(raws) {
					_ = json.Unmarshal(raws[i], &v)
				}
				calls = append(calls, toolCall{name: n, args: v, step: a.Step})
			}
		case role == "tool" && next < len(calls):
			if a.Observation != nil && strings.HasPrefix(strings.TrimSpace(*a.Observation), "Error") {
				calls[next].failed = true
			}
			next++
		}
	}
	out := calls[:0]
	for _, c := range calls {
		if !c.failed && !isReadOnly(c.name, readOnly) {
			out = append(out, c)
		}
	}
	return out
}

// actionsGate matches gold writes against the agent's writes as multisets.
// A gold call matches an agent call of the same tool whose arguments contain
// the gold arguments (extra keys inside objects are ignored: τ-bench tools
// read only their declared fields).
func actionsGate(gold []schema.GoldAction, agent []toolCall, readOnly []string) GateResult {
	g := GateResult{ID: "actions", Type: schema.GateCritical, Status: gatePassed}
	used := make([]bool, len(agent))
	var missing []string
	for _, ga := range gold {
		if isReadOnly(ga.Name, readOnly) {
			continue
		}
		var want any
		_ = json.Unmarshal(ga.Kwargs, &want)
		found := false
		for i, c := range agent {
			if !used[i] && c.name == ga.Name && contains(want, c.args) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, ga.Name)
		}
	}
	var extra []string
	for i, c := range agent {
		if !used[i] {
			extra = append(extra, c.name)
		}
	}
	if len(missing) > 0 || len(extra) > 0 {
		g.Status = gateFailed
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "gold writes not done: "+strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			parts = append(parts, "writes not in the gold actions: "+strings.Join(extra, ", "))
		}
		g.Detail = strings.Join(parts, "; ")
	}
	return g
}

// contains reports whether got holds want: objects recursively (extra keys
// in got allowed), arrays element by element, scalars equal (JSON numbers
// compare as float64).
func contains(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		gm, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := gm[k]
			if !ok || !contains(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		gs, ok := got.([]any)
		if !ok || len(gs) != len(w) {
			return false
		}
		for i := range w {
			if !contains(w[i], gs[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}
