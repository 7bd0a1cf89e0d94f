package trust

import (
	"encoding/json"
	"fmt"

	"github.com/trustlake/trustlake/schema"
)

func ptr[T any](v T) *T { return &v }

// msg is one trajectory message for tests.
type msg struct {
	role, text, tool, args, obs string
}

func actions(id string, msgs ...msg) []schema.Action {
	out := make([]schema.Action, len(msgs))
	for i, m := range msgs {
		a := schema.Action{EpisodeID: id, Step: int64(i), Role: ptr(m.role), Extra: "{}"}
		if m.text != "" {
			a.Text = ptr(m.text)
		}
		if m.tool != "" {
			a.ToolName = ptr(m.tool)
		}
		if m.args != "" {
			a.Arguments = ptr(m.args)
		}
		if m.role == "tool" {
			a.Observation = ptr(m.obs)
		}
		out[i] = a
	}
	return out
}

// tauResult builds a τ-bench result with a grader.
func tauResult(task string, trial int64, score float64, g schema.TauBenchGrader, final string) schema.Result {
	g.Kind = schema.GraderTauBench
	if g.Outputs == nil {
		g.Outputs = []string{}
	}
	b, _ := json.Marshal(g)
	id := fmt.Sprintf("tb/agent/%s/%d", task, trial)
	r := schema.Result{ResultID: id, Benchmark: "tb", TaskID: task, Agent: "agent", Trial: trial,
		RecordedScore: score, RecordedPass: score >= 1, EpisodeID: ptr(id), Instruction: ptr("cancel reservation ABC123"),
		Grader: string(b), Extra: "{}"}
	if final != "" {
		r.FinalMessage = ptr(final)
	}
	return r
}

func gold(name, kwargs string) schema.GoldAction {
	return schema.GoldAction{Name: name, Kwargs: json.RawMessage(kwargs)}
}

// cancelTraj is a trajectory cancelling ABC123, whose tool call succeeds
// unless obs says otherwise.
func cancelTraj(id, args, obs, final string) []schema.Action {
	return actions(id,
		msg{role: "system", text: "policy: refunds take 5 to 7 days"},
		msg{role: "user", text: "please cancel ABC123"},
		msg{role: "assistant", tool: "get_reservation_details", args: `{"reservation_id":"ABC123"}`},
		msg{role: "tool", tool: "get_reservation_details", obs: `{"reservation_id": "ABC123", "price": 430}`},
		msg{role: "assistant", tool: "cancel_reservation", args: args},
		msg{role: "tool", tool: "cancel_reservation", obs: obs},
		msg{role: "assistant", text: final},
	)
}

// Input is what Audit reads: the records and the model-judge votes on D2
// suspects (nil when no judge is configured).
type Input struct {
	Records []Record
	Votes   map[VoteKey][]bool
}

// Audit runs an Auditor over every record: the report and one schema.Trust
// row per record, in input order.
func Audit(in Input, opts Options) (Report, []schema.Trust) {
	a := NewAuditor(opts, in.Votes)
	for i := range in.Records {
		a.Add(in.Records[i])
	}
	return a.Finish()
}
