package ingest

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/schema"
)

// realTauBench is the real τ-bench file of the shared data (README beside it).
func realTauBench(t testing.TB) string {
	t.Helper()
	return testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
}

func TestDecodeTauBenchReal(t *testing.T) {
	p := realTauBench(t)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var results []schema.Result
	nActs := 0
	err = DecodeTauBench(f, "gpt-4o-airline.json", TauBenchOptions{}, func(r schema.Result, a []schema.Action) error {
		results = append(results, r)
		nActs += len(a)
		return nil
	})
	if err != nil {
		t.Fatalf("DecodeTauBench: %v", err)
	}
	if got, want := len(results), 200; got != want {
		t.Fatalf("results = %d, want %d", got, want)
	}
	if got, want := nActs, 5308; got != want { // 2980 + 1164 + 1164 messages
		t.Errorf("actions = %d, want %d", got, want)
	}
	passes := 0
	for _, r := range results {
		if r.RecordedPass {
			passes++
		}
	}
	if got, want := passes, 84; got != want {
		t.Errorf("recorded passes = %d, want %d", got, want)
	}
	r0 := results[0]
	if got, want := r0.ResultID, "tau-bench-airline/gpt-4o/0/0"; got != want {
		t.Errorf("result_id = %q, want %q", got, want)
	}
	if got, want := r0.Benchmark, "tau-bench-airline"; got != want {
		t.Errorf("benchmark = %q, want %q", got, want)
	}
	if r0.SrcLine != 2 {
		t.Errorf("first record line = %d, want 2", r0.SrcLine)
	}
	if r0.FinalMessage == nil || !strings.HasPrefix(*r0.FinalMessage, "Your flight from New York (JFK) to Seattle (SEA) has been successfully booked") {
		t.Errorf("final message = %v", r0.FinalMessage)
	}
	var g schema.TauBenchGrader
	if err := json.Unmarshal([]byte(r0.Grader), &g); err != nil {
		t.Fatal(err)
	}
	if g.Kind != schema.GraderTauBench || len(g.Actions) != 1 || g.Actions[0].Name != "book_reservation" || g.RActions == nil || *g.RActions != 0 {
		t.Errorf("grader = %+v", g)
	}
	// Line numbers of later records are where their '{' is.
	data, _ := os.ReadFile(p)
	lines := strings.Split(string(data), "\n")
	for _, r := range results[:5] {
		if got := strings.TrimSpace(lines[r.SrcLine-1]); got != "{" {
			t.Errorf("%s: line %d is %q, want the record's opening brace", r.ResultID, r.SrcLine, got)
		}
	}
}

// tauRec builds one τ-bench record for tests.
func tauRec(taskID, trial int, reward string, instr string, traj string) string {
	return `{"task_id": ` + itoa(taskID) + `, "reward": ` + reward + `, "trial": ` + itoa(trial) + `,
 "info": {"task": {"user_id": "u1", "instruction": "` + instr + `", "actions": [{"name": "cancel_reservation", "kwargs": {"reservation_id": "ABC123"}}], "outputs": []},
  "reward_info": {"reward": ` + reward + `, "info": {"r_actions": ` + reward + `, "gt_data_hash": "x"}, "actions": []}},
 "traj": ` + traj + `}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

const goodTraj = `[{"role": "system", "content": "policy"}, {"role": "user", "content": "cancel ABC123"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "cancel_reservation", "arguments": "{\"reservation_id\":\"ABC123\"}"}}]},
 {"role": "tool", "tool_call_id": "c1", "name": "cancel_reservation", "content": "{\"status\": \"cancelled\"}"},
 {"role": "assistant", "content": "Your reservation ABC123 has been cancelled."}]`

func TestDecodeTauBenchBadInput(t *testing.T) {
	recs := []string{
		tauRec(1, 0, "1.0", "cancel", goodTraj),
		tauRec(1, 1, "0.0", "a different instruction", goodTraj), // trials disagree on task identity
		tauRec(2, 0, "1.0", "x", `[{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "function": {"name": "think", "arguments": "{}"}}]}]`),
		tauRec(3, 0, "1.0", "x", strings.Replace(goodTraj, `{\"reservation_id\":\"ABC123\"}`, `{reservation_id: ABC123`, 1)),
		tauRec(4, 0, "7", "x", goodTraj), // reward outside [0,1]
		tauRec(1, 2, "0.0", "cancel", goodTraj),
		tauRec(1, 2, "0.0", "cancel", goodTraj), // duplicate trial
	}
	in := "[\n" + strings.Join(recs, ",\n") + "\n]\n"
	var got []string
	err := DecodeTauBench(strings.NewReader(in), "m-airline.json", TauBenchOptions{}, func(r schema.Result, _ []schema.Action) error {
		got = append(got, r.ResultID)
		return nil
	})
	want := []string{"tau-bench-airline/m/1/0", "tau-bench-airline/m/1/2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("emitted %v, want %v", got, want)
	}
	var re RecordErrors
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want RecordErrors", err)
	}
	cases := []struct {
		field    string
		sentinel error
		substr   string
	}{
		{"info.task", schema.ErrValue, "differs from the task recorded for it at line 2"},
		{"traj", schema.ErrMissing, "no assistant message"},
		{"traj[2].tool_calls[0].function.arguments", schema.ErrSyntax, "not valid JSON"},
		{"reward", schema.ErrValue, "outside [0, 1]"},
		{"trial", schema.ErrDuplicate, "already at line"},
	}
	if len(re) != len(cases) {
		t.Fatalf("got %d errors, want %d:\n%v", len(re), len(cases), err)
	}
	lines := strings.Split(in, "\n")
	for i, c := range cases {
		e := re[i]
		if e.Field != c.field || !errors.Is(e, c.sentinel) || !strings.Contains(e.Error(), c.substr) {
			t.Errorf("error %d = %q, want field %s, %v, containing %q", i, e, c.field, c.sentinel, c.substr)
		}
		if !strings.HasPrefix(e.Error(), "m-airline.json:") || !strings.HasPrefix(lines[e.Line-1], `{"task_id"`) {
			t.Errorf("error %d: line %d does not start a record: %q", i, e.Line, lines[e.Line-1])
		}
	}
}

func TestDecodeTauBenchScaleAndSyntax(t *testing.T) {
	in := "[" + tauRec(4, 0, "7", "x", goodTraj) + "]"
	var n int
	err := DecodeTauBench(strings.NewReader(in), "m-airline.json", TauBenchOptions{Scale: 10}, func(r schema.Result, _ []schema.Action) error {
		n++
		if r.RecordedScore != 0.7 || r.RecordedPass {
			t.Errorf("score %g pass %v, want 0.7 false", r.RecordedScore, r.RecordedPass)
		}
		return nil
	})
	if err != nil || n != 1 {
		t.Fatalf("with scale: n=%d err=%v", n, err)
	}
	err = DecodeTauBench(strings.NewReader(`{"task_id": 1}`), "x.json", TauBenchOptions{}, func(schema.Result, []schema.Action) error { return nil })
	if !errors.Is(err, schema.ErrSyntax) {
		t.Errorf("not an array: err = %v, want ErrSyntax", err)
	}
	in = "[" + tauRec(1, 0, "1", "x", goodTraj) + ",\n{\"task_id\": 2,,}]"
	n = 0
	err = DecodeTauBench(strings.NewReader(in), "x-airline.json", TauBenchOptions{}, func(schema.Result, []schema.Action) error { n++; return nil })
	if n != 1 || !errors.Is(err, schema.ErrSyntax) {
		t.Errorf("broken second element: n=%d err=%v, want 1 record and ErrSyntax", n, err)
	}
}

func TestDecodeTauBenchActions(t *testing.T) {
	in := "[" + tauRec(1, 0, "1.0", "cancel", goodTraj) + "]"
	var acts []schema.Action
	var res schema.Result
	err := DecodeTauBench(strings.NewReader(in), "gpt-4o-airline.json", TauBenchOptions{Agent: "a1"}, func(r schema.Result, a []schema.Action) error {
		res, acts = r, a
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 5 {
		t.Fatalf("actions = %d, want 5", len(acts))
	}
	call, out := acts[2], acts[3]
	if *call.ToolName != "cancel_reservation" || *call.Arguments != `{"reservation_id":"ABC123"}` || call.Step != 2 {
		t.Errorf("tool call row = %+v", call)
	}
	if *out.Role != "tool" || *out.Observation != `{"status": "cancelled"}` || out.Text != nil {
		t.Errorf("tool output row = %+v", out)
	}
	if got, want := *res.FinalMessage, "Your reservation ABC123 has been cancelled."; got != want {
		t.Errorf("final = %q, want %q", got, want)
	}
	if res.Agent != "a1" || *res.EpisodeID != res.ResultID || acts[0].EpisodeID != res.ResultID {
		t.Errorf("agent/episode ids: %+v", res)
	}
}
