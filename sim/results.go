package sim

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// streamResults keys the draws of simulated recorded results (τ-bench
// format); it is far from the episode streams of rng.go.
const streamResults uint64 = 0x7265 // "re"

// ResultsOptions configures WriteTauBench. Zero values mean defaults.
type ResultsOptions struct {
	Results int    // recorded results in all; 0 means 100,000
	Trials  int    // trials per task; 0 means 5
	Steps   int    // messages per trajectory; 0 means 30 (minimum 6)
	Seed    uint64 // 0 is a valid seed
}

func (o ResultsOptions) withDefaults() ResultsOptions {
	o.Results = cmp.Or(max(o.Results, 0), 100_000)
	o.Trials = cmp.Or(max(o.Trials, 0), 5)
	o.Steps = max(cmp.Or(max(o.Steps, 0), 30), 6)
	return o
}

// ResultsStats counts what WriteTauBench wrote.
type ResultsStats struct {
	Results int
	Tasks   int
	Passes  int
	Bytes   int64
}

// WriteTauBench writes Results simulated τ-bench records (a JSON array in
// the format of τ-bench's historical trajectories) to w: Results/Trials
// tasks (rounded up) of Trials trials each, trajectories of Steps messages
// (system, user, read tool calls with outputs, one cancel_reservation write,
// its output, a final assistant message). Task t passes with probability
// drawn per task; a failed trial cancels the wrong reservation; the final
// message claims success in most passes and in some failures, and now and
// then states an amount that no tool returned. The same options give
// byte-identical output. Everything is marked simulated: task user ids start
// with "sim_", the source is "sim".
func WriteTauBench(w io.Writer, opts ResultsOptions) (ResultsStats, error) {
	o := opts.withDefaults()
	bw := bufio.NewWriterSize(w, 1<<20)
	st := ResultsStats{Tasks: (o.Results + o.Trials - 1) / o.Trials}
	buf := []byte("[\n")
	for i := 0; i < o.Results; i++ {
		task, trial := i%st.Tasks, i/st.Tasks // trial-major, like τ-bench files
		rec, pass := simRecord(o, task, trial)
		if pass {
			st.Passes++
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return st, fmt.Errorf("encode result %d: %w", i, err)
		}
		buf = append(buf, b...)
		if i == o.Results-1 {
			buf = append(buf, "\n]\n"...)
		}
		if _, err := bw.Write(buf); err != nil {
			return st, fmt.Errorf("write results: %w", err)
		}
		st.Bytes += int64(len(buf))
		buf = append(buf[:0], ",\n"...)
		st.Results++
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("write results: %w", err)
	}
	return st, nil
}

type simMsg struct {
	Role       string        `json:"role"`
	Content    *string       `json:"content"`
	ToolCalls  []simToolCall `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
	Name       string        `json:"name,omitempty"`
}

type simToolCall struct {
	ID       string      `json:"id"`
	Type     string      `json:"type"`
	Function simFunction `json:"function"`
}

type simFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type simAction struct {
	Name   string            `json:"name"`
	Kwargs map[string]string `json:"kwargs"`
}

func simRecord(o ResultsOptions, task, trial int) (map[string]any, bool) {
	tr := newRand(o.Seed, streamResults, uint64(task))
	passProb := tr.Float64()
	r := newRand(o.Seed, streamResults, uint64(task), uint64(trial)+1)
	pass := r.Float64() < passProb
	user := fmt.Sprintf("sim_user_%d", task)
	res := fmt.Sprintf("SIM%06d", task)
	instr := fmt.Sprintf("You are %s. You want to cancel reservation %s and get a refund.", user, res)
	gold := []simAction{{Name: "cancel_reservation", Kwargs: map[string]string{"reservation_id": res}}}
	reward := 0.0
	if pass {
		reward = 1
	}
	traj := simTrajectory(o.Steps, r, user, res, pass)
	rec := map[string]any{
		"task_id": task, "reward": reward, "trial": trial, "traj": traj,
		"info": map[string]any{
			"task":   map[string]any{"user_id": user, "instruction": instr, "actions": gold, "outputs": []string{}},
			"source": "sim",
			"reward_info": map[string]any{"reward": reward, "actions": gold,
				"info": map[string]any{"r_actions": reward, "gt_data_hash": fmt.Sprintf("%016x", r.Uint64())}},
		},
	}
	return rec, pass
}

func simTrajectory(steps int, r *rand.Rand, user, res string, pass bool) []simMsg {
	msgs := make([]simMsg, 0, steps)
	msgs = append(msgs,
		simMsg{Role: "system", Content: new("Simulated airline policy. Refunds take 5 to 7 business days.")},
		simMsg{Role: "user", Content: new(fmt.Sprintf("Hi, I am %s and I want to cancel %s.", user, res))})
	price := 100 + r.IntN(900)
	other := fmt.Sprintf("SIM%06d", 900000+r.IntN(99999))
	call := 0
	toolCall := func(name, args string) simMsg {
		call++
		return simMsg{Role: "assistant", ToolCalls: []simToolCall{{ID: "call_" + strconv.Itoa(call), Type: "function",
			Function: simFunction{Name: name, Arguments: args}}}}
	}
	toolOut := func(name, out string) simMsg {
		return simMsg{Role: "tool", ToolCallID: "call_" + strconv.Itoa(call), Name: name, Content: new(out)}
	}
	for len(msgs) < steps-3 {
		if steps-3-len(msgs) >= 2 {
			id := res
			if r.IntN(2) == 0 {
				id = other
			}
			args := fmt.Sprintf(`{"reservation_id":"%s"}`, id)
			out := fmt.Sprintf(`{"reservation_id": "%s", "user_id": "%s", "price": %d, "flight": "HAT%03d", "status": "available"}`,
				id, user, price+r.IntN(50), r.IntN(300))
			msgs = append(msgs, toolCall("get_reservation_details", args), toolOut("get_reservation_details", out))
			continue
		}
		msgs = append(msgs, simMsg{Role: "user", Content: new("Yes, please go ahead.")})
	}
	target := res
	if !pass {
		target = other
	}
	msgs = append(msgs,
		toolCall("cancel_reservation", fmt.Sprintf(`{"reservation_id":"%s"}`, target)),
		toolOut("cancel_reservation", fmt.Sprintf(`{"reservation_id": "%s", "status": "cancelled", "refund": %d}`, target, price)))
	amount := price
	if r.IntN(10) == 0 {
		amount = price + 1 + r.IntN(99) // a value no tool returned
	}
	final := "I'm sorry, I could not cancel the reservation. Would you like me to transfer you to a human agent?"
	if pass && r.IntN(10) < 9 || !pass && r.IntN(10) < 6 {
		final = fmt.Sprintf("Your reservation %s has been successfully cancelled. A refund of $%d will be processed within 5 to 7 business days.", target, amount)
	}
	return append(msgs, simMsg{Role: "assistant", Content: new(final)})
}
