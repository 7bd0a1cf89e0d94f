package trust

// D1 on τ-bench: the required outputs and the gold write calls, re-checked from the trajectory.

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

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
		if !slices.ContainsFunc(norm, func(t string) bool { return strings.Contains(t, lo) }) {
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
		role := orZero(a.Role)
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
	return slices.DeleteFunc(calls, func(c toolCall) bool { return c.failed || hasPrefixAny(c.name, readOnly) })
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
		if hasPrefixAny(ga.Name, readOnly) {
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
		return ok && slices.EqualFunc(w, gs, contains)
	}
	return reflect.DeepEqual(want, got)
}
