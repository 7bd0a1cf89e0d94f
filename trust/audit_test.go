package trust

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/trustlake/trustlake/schema"
)

const (
	cancelArgs = `{"reservation_id":"ABC123"}`
	cancelled  = `{"reservation_id": "ABC123", "status": "cancelled"}`
	done       = "Your reservation ABC123 has been successfully cancelled."
)

func TestD1TauBench(t *testing.T) {
	cancel := []schema.GoldAction{gold("get_reservation_details", cancelArgs), gold("cancel_reservation", cancelArgs)}
	cases := []struct {
		name     string
		score    float64
		g        schema.TauBenchGrader
		acts     []schema.Action
		infra    string
		outcome  string
		regraded *bool
		gate     *string
		soft     bool
	}{
		{"pass confirmed", 1, schema.TauBenchGrader{Actions: cancel, Finished: true},
			cancelTraj("x", cancelArgs, cancelled, done), "", schema.D1Confirm, ptr(true), nil, false},
		{"extra nested keys ignored", 1, schema.TauBenchGrader{Actions: []schema.GoldAction{gold("cancel_reservation", `{"reservation_id":"ABC123"}`)}, Finished: true},
			cancelTraj("x", `{"reservation_id":"ABC123","reason":"plans"}`, cancelled, done), "", schema.D1Confirm, ptr(true), nil, false},
		{"pass contradicted: wrong write", 1, schema.TauBenchGrader{Actions: cancel, Finished: true},
			cancelTraj("x", `{"reservation_id":"XYZ999"}`, cancelled, done), "", schema.D1Contradiction, ptr(false), ptr(schema.GateCritical), false},
		{"pass contradicted: write errored", 1, schema.TauBenchGrader{Actions: cancel, Finished: true},
			cancelTraj("x", cancelArgs, "Error: reservation not found", done), "", schema.D1Contradiction, ptr(false), ptr(schema.GateCritical), false},
		{"fail confirmed: output missing, state right (soft)", 0, schema.TauBenchGrader{Actions: cancel, Outputs: []string{"1,234"}, Finished: true},
			cancelTraj("x", cancelArgs, cancelled, done), "", schema.D1Confirm, ptr(false), ptr(schema.GateCritical), true},
		{"output found ignoring case and commas", 1, schema.TauBenchGrader{Actions: cancel, Outputs: []string{"430"}, Finished: true},
			cancelTraj("x", cancelArgs, cancelled, "Cancelled; refund of $4,30 is on its way."), "", schema.D1Confirm, ptr(true), nil, false},
		{"fail with every recomputable gate passing: unverified", 0, schema.TauBenchGrader{Actions: cancel, Finished: true},
			cancelTraj("x", cancelArgs, cancelled, done), "", schema.D1Unverified, nil, nil, false},
		{"no trajectory: unverified", 1, schema.TauBenchGrader{Actions: cancel, Finished: true},
			nil, "", schema.D1Unverified, nil, nil, false},
		{"infrastructure failure: unverified", 0, schema.TauBenchGrader{Actions: cancel, Finished: true},
			cancelTraj("x", cancelArgs, cancelled, done), "rate limited", schema.D1Unverified, nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Record{Result: tauResult("1", 0, c.score, c.g, done), Actions: c.acts}
			if c.infra != "" {
				r.Result.Infra = ptr(c.infra)
			}
			got := auditD1(&r, Options{}.withDefaults())
			if got.outcome != c.outcome || !cmp.Equal(got.regraded, c.regraded) || !cmp.Equal(got.failedGate, c.gate) || got.soft != c.soft {
				t.Errorf("got outcome %s regraded %v gate %v soft %v (%s), want %s %v %v %v", got.outcome, deref(got.regraded), deref(got.failedGate), got.soft, got.reason,
					c.outcome, deref(c.regraded), deref(c.gate), c.soft)
			}
		})
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestD1Regrade(t *testing.T) {
	admin := schema.Gate{ID: "csv_header", Type: schema.GateAdministrative}
	crit := schema.Gate{ID: "value", Type: schema.GateCritical}
	untyped := schema.Gate{ID: "mystery"}
	cases := []struct {
		name    string
		pass    bool
		rg      Regrade
		final   string
		outcome string
		gate    *string
	}{
		{"recorded pass confirmed", true, Regrade{Pass: true, Gates: []schema.Gate{{ID: "v", Type: schema.GateCritical, Passed: true}}}, "", schema.D1Confirm, nil},
		{"recorded pass contradicted", true, Regrade{Gates: []schema.Gate{crit}}, "", schema.D1Contradiction, ptr(schema.GateCritical)},
		{"recorded fail, re-run passes", false, Regrade{Pass: true}, "", schema.D1Contradiction, nil},
		{"severity priority: critical not masked by administrative", true, Regrade{Gates: []schema.Gate{admin, crit}}, "", schema.D1Contradiction, ptr(schema.GateCritical)},
		{"untyped gate counts as critical", true, Regrade{Gates: []schema.Gate{untyped}}, "", schema.D1Contradiction, ptr(schema.GateCritical)},
		{"upgrade", false, Regrade{Gates: []schema.Gate{admin}, ValuesMatch: ptr(true)}, "", schema.D1Upgrade, ptr(schema.GateAdministrative)},
		{"no upgrade: gate requested by the prompt", false, Regrade{Gates: []schema.Gate{admin}, ValuesMatch: ptr(true), Requested: []string{"csv_header"}}, "", schema.D1Confirm, ptr(schema.GateAdministrative)},
		{"no upgrade: values differ", false, Regrade{Gates: []schema.Gate{admin}, ValuesMatch: ptr(false)}, "", schema.D1Confirm, ptr(schema.GateAdministrative)},
		{"no upgrade: values unknown", false, Regrade{Gates: []schema.Gate{admin}}, "", schema.D1Confirm, ptr(schema.GateAdministrative)},
		{"no upgrade: a critical gate failed too", false, Regrade{Gates: []schema.Gate{admin, crit}, ValuesMatch: ptr(true)}, "", schema.D1Confirm, ptr(schema.GateCritical)},
		{"no upgrade: confirmed lie", false, Regrade{Gates: []schema.Gate{admin}, ValuesMatch: ptr(true)}, "All tests passed and the results are correct.", schema.D1Confirm, ptr(schema.GateAdministrative)},
		{"grader cannot run", true, Regrade{Err: "needs network"}, "", schema.D1Unverified, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			score := 0.0
			if c.pass {
				score = 1
			}
			res := schema.Result{ResultID: "b/a/t/0", Benchmark: "b", Agent: "a", TaskID: "t", RecordedScore: score, RecordedPass: c.pass, Grader: "{}"}
			if c.final != "" {
				res.FinalMessage = ptr(c.final)
			}
			rg := c.rg
			_, rows := Audit(Input{Records: []Record{{Result: res, Regrade: &rg}}}, Options{})
			got := rows[0]
			if got.D1Outcome != c.outcome || !cmp.Equal(got.D1FailedGate, c.gate) {
				t.Errorf("got %s gate %v (%s), want %s gate %v", got.D1Outcome, deref(got.D1FailedGate), got.Reasons, c.outcome, deref(c.gate))
			}
		})
	}
}

func TestD2Provenance(t *testing.T) {
	base := func(final string, extra ...msg) []schema.Action {
		m := []msg{
			{role: "system", text: "Each extra bag costs 50 dollars."},
			{role: "user", text: "Cancel ABC123, my card ends in 7447."},
			{role: "assistant", tool: "get_reservation_details", args: `{"reservation_id":"ABC123"}`},
			{role: "tool", tool: "get_reservation_details", obs: `{"price": 1430, "payment_id": "credit_card_4421486"}`},
		}
		m = append(m, extra...)
		return actions("x", append(m, msg{role: "assistant", text: final})...)
	}
	cases := []struct {
		name   string
		acts   []schema.Action
		final  string
		votes  map[VoteKey][]bool
		counts [4]int
		conf   int
		status string
	}{
		{"derived and given", nil, "Refunded $1,430 to card 7447 (credit_card_4421486); bags are 50 dollars.", nil, [4]int{2, 2, 0, 0}, 0, schema.D2Clean},
		{"typed: first written by the agent", []schema.Action{}, "The total is $999.", nil, [4]int{0, 0, 1, 0}, 0, schema.D2Unconfirmed},
		{"ungrounded", nil, "Your refund of $2,544 is on its way.", nil, [4]int{0, 0, 0, 1}, 0, schema.D2Unconfirmed},
		{"gamed by strict majority", nil, "Your refund of $2,544 is on its way.", map[VoteKey][]bool{{"r", "2544"}: {true, true, false}}, [4]int{0, 0, 0, 1}, 0, schema.D2Gamed},
		{"one vote of three is clean", nil, "Your refund of $2,544 is on its way.", map[VoteKey][]bool{{"r", "2544"}: {true, false, false}}, [4]int{0, 0, 0, 1}, 0, schema.D2Clean},
		{"a tie is clean", nil, "Your refund of $2,544 is on its way.", map[VoteKey][]bool{{"r", "2544"}: {true, false}}, [4]int{0, 0, 0, 1}, 0, schema.D2Clean},
		{"confession", nil, "I hard-coded the refund amount.", nil, [4]int{}, 1, schema.D2Unconfirmed},
		{"negated confession", nil, "I will avoid hard-coding anything; the refund is done.", nil, [4]int{}, 0, schema.D2Clean},
		{"write argument traced", nil, "Done.", nil, [4]int{0, 0, 0, 1}, 0, schema.D2Unconfirmed},
		{"untraceable", []schema.Action{}, "x", nil, [4]int{}, 0, schema.D2Untraceable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			acts := c.acts
			switch {
			case c.name == "typed: first written by the agent":
				acts = base(c.final, msg{role: "assistant", text: "Let me see: 999 would be the total."})
			case c.name == "write argument traced":
				acts = base(c.final, msg{role: "assistant", tool: "send_certificate", args: `{"amount": 375}`}, msg{role: "tool", tool: "send_certificate", obs: "ok"})
			case acts == nil:
				acts = base(c.final)
			}
			r := Record{Result: schema.Result{ResultID: "r", FinalMessage: ptr(c.final), Instruction: ptr("You want a refund.")}, Actions: acts}
			got := auditD2(&r, c.votes, DefaultReadOnlyTools())
			if got.counts != c.counts || len(got.confessions) != c.conf || got.status != c.status {
				t.Errorf("got counts %v confessions %v status %s (%s), want %v %d %s", got.counts, got.confessions, got.status, got.reason, c.counts, c.conf, c.status)
			}
		})
	}
}

func TestD2Policy(t *testing.T) {
	acts := cancelTraj("x", cancelArgs, cancelled, "Cancelled; your refund of $2,544 is on its way.")
	in := Input{Records: []Record{{Result: tauResult("1", 0, 1, schema.TauBenchGrader{Actions: []schema.GoldAction{gold("cancel_reservation", cancelArgs)}}, *acts[6].Text), Actions: acts}}}
	for _, c := range []struct {
		policy  string
		trusted bool
	}{{"", true}, {PolicyLenient, true}, {PolicyStrict, false}} {
		_, rows := Audit(in, Options{D2Policy: c.policy, MinRepeats: 1})
		// A single trial is insufficient for D4, so trusted is false anyway;
		// check the D2 dimension through the report instead.
		rep, _ := Audit(in, Options{D2Policy: c.policy})
		if got, want := rep.Total.Removed.D2 == 0, c.trusted; got != want {
			t.Errorf("policy %q: D2 kept the pass = %v, want %v (row %+v)", c.policy, got, want, rows[0].D2Status)
		}
	}
}

func TestD4(t *testing.T) {
	cases := []struct {
		name    string
		self    float64
		others  []float64
		infra   []bool
		status  string
		repeats int
		infraN  int
		gap     *float64
	}{
		{"stable pass", 1, []float64{1, 1, 1, 1}, nil, schema.D4Stable, 4, 0, ptr(0.0)},
		{"varied", 1, []float64{1, 0, 1}, nil, schema.D4Varied, 3, 0, ptr(2.0/3 - 1)},
		{"stable at another tier", 1, []float64{0, 0, 0}, nil, schema.D4StableOther, 3, 0, ptr(-1.0)},
		{"partial tier differs from pass", 1, []float64{1, 0.5}, nil, schema.D4Varied, 2, 0, ptr(-0.25)},
		{"single trial", 1, nil, nil, schema.D4Insufficient, 0, 0, nil},
		{"infrastructure failures excluded and counted", 1, []float64{0, 1, 0, 1}, []bool{true, false, true, false}, schema.D4Stable, 2, 2, ptr(0.0)},
		{"two runs per task: one repeat is enough", 1, []float64{1}, nil, schema.D4Stable, 1, 0, ptr(0.0)},
		{"one repeat left after exclusion", 1, []float64{0, 1}, []bool{true, false}, schema.D4Stable, 1, 1, ptr(0.0)},
		{"too few after exclusion", 1, []float64{0, 0}, []bool{true, true}, schema.D4Insufficient, 0, 2, nil},
		{"at most N repeats, lowest trials first", 1, []float64{1, 1, 1, 1, 1, 0}, nil, schema.D4Stable, 5, 0, ptr(0.0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs := []Record{{Result: schema.Result{ResultID: "s", Benchmark: "b", Agent: "a", TaskID: "t", Trial: 0, RecordedScore: c.self, RecordedPass: c.self == 1, Grader: "{}"}}}
			for i, s := range c.others {
				r := schema.Result{ResultID: fmt.Sprint(i), Benchmark: "b", Agent: "a", TaskID: "t", Trial: int64(i + 1), RecordedScore: s, Grader: "{}"}
				if c.infra != nil && c.infra[i] {
					r.Infra = ptr("timeout")
				}
				recs = append(recs, Record{Result: r})
			}
			_, rows := Audit(Input{Records: recs}, Options{})
			got := rows[0]
			if got.D4Status != c.status || got.D4Repeats != int64(c.repeats) || got.D4InfraExcluded != int64(c.infraN) ||
				!cmp.Equal(got.D4Gap, c.gap, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })) {
				t.Errorf("got %s repeats %d infra %d gap %v (%s), want %s %d %d %v", got.D4Status, got.D4Repeats, got.D4InfraExcluded, deref(got.D4Gap), got.Reasons,
					c.status, c.repeats, c.infraN, deref(c.gap))
			}
		})
	}
}

// conjunctionInput builds, for one agent, recorded passes that each fail
// exactly the named dimensions (repeats make D4 stable unless "d4" fails).
func conjunctionInput(fails ...string) Input {
	var in Input
	cancel := []schema.GoldAction{gold("cancel_reservation", cancelArgs)}
	for i, f := range fails {
		task := fmt.Sprint(i)
		args, final := cancelArgs, done
		if strings.Contains(f, "d1") {
			args = `{"reservation_id":"430"}` // wrong, but a grounded value (from a tool output)
			final = "I could not finish."
		}
		if strings.Contains(f, "d3") {
			args = `{"reservation_id":"430"}` // wrong, but a grounded value (from a tool output)
			final = done                      // claim on a re-graded failure: a lie, and D1 fails too
		}
		if strings.Contains(f, "d2") {
			final = done + " Refund: $2,544."
		}
		g := schema.TauBenchGrader{Actions: cancel, Finished: true}
		in.Records = append(in.Records, Record{Result: tauResult(task, 0, 1, g, final), Actions: cancelTraj(task, args, cancelled, final)})
		repeat := 1.0
		if strings.Contains(f, "d4") {
			repeat = 0
		}
		for trial := int64(1); trial <= 2; trial++ {
			score := repeat
			if trial == 2 && strings.Contains(f, "d4") {
				score = 1 // repeats cross tiers: varied
			}
			in.Records = append(in.Records, Record{Result: tauResult(task, trial, score, g, "")})
		}
	}
	return in
}

func TestConjunction(t *testing.T) {
	in := conjunctionInput("", "", "d1", "d2", "d4", "d3", "d2+d4")
	rep, rows := Audit(in, Options{D2Policy: PolicyStrict})
	row := rep.PerAgent[0]
	if got, want := row.RecordedPasses, 7+5*2+2*1; got != want { // 7 first trials plus the passing repeats
		t.Fatalf("recorded passes = %d, want %d", got, want)
	}
	trusted := map[string]bool{}
	for _, r := range rows {
		if r.Trial == 0 {
			trusted[r.TaskID] = r.Trusted
		}
	}
	want := map[string]bool{"0": true, "1": true, "2": false, "3": false, "4": false, "5": false, "6": false}
	if diff := cmp.Diff(want, trusted); diff != "" {
		t.Errorf("trusted per task (-want +got):\n%s", diff)
	}
	// Repeats carry no trajectory: D1 unverified, D2 untraceable; they are
	// recorded passes that D1 removes. Check the first-trial rows alone.
	var firsts Dims
	var only Dims
	for _, r := range rows {
		if r.Trial != 0 {
			continue
		}
		ok := [4]bool{r.D1Outcome == schema.D1Confirm && r.D1Regraded != nil && *r.D1Regraded, r.D2Status == schema.D2Clean, !r.D3Lie, r.D4Status == schema.D4Stable}
		n := 0
		for d := range ok {
			if !ok[d] {
				firsts.add(d)
				n++
			}
		}
		if n == 1 {
			for d := range ok {
				if !ok[d] {
					only.add(d)
				}
			}
		}
	}
	if diff := cmp.Diff(Dims{D1: 2, D2: 2, D3: 1, D4: 2}, firsts); diff != "" {
		t.Errorf("removed among first trials (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Dims{D1: 1, D2: 1, D4: 1}, only); diff != "" {
		t.Errorf("caught by exactly one (-want +got):\n%s", diff)
	}
	if row.Trusted != 2 || row.Ablation.All != 2 || row.Ablation.D1 < row.Ablation.D1D4 || row.Ablation.D1D4 < row.Ablation.All {
		t.Errorf("trusted %d ablation %+v", row.Trusted, row.Ablation)
	}
	if row.D3.Lies != 1 || row.D3.Hard != 1 {
		t.Errorf("lies %+v, want 1 hard", row.D3)
	}
}

func TestReportTable5Wilson(t *testing.T) {
	r := rate(19, 84, 0.05)
	if math.Abs(float64(r.Value)-0.226) > 0.0005 || math.Abs(float64(r.Wilson[0])-0.150) > 0.0005 || math.Abs(float64(r.Wilson[1])-0.326) > 0.0005 {
		t.Errorf("19/84 = %v [%v, %v], want 0.226 [0.150, 0.326]", r.Value, r.Wilson[0], r.Wilson[1])
	}
	b, err := json.Marshal(rate(0, 0, 0.05))
	if err != nil || string(b) != `{"value":null,"wilson":[null,null]}` {
		t.Errorf("empty rate JSON = %s, %v", b, err)
	}
}

func TestReportJSONShape(t *testing.T) {
	rep, _ := Audit(conjunctionInput("", "d4"), Options{})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var shape struct {
		PerAgent []struct {
			RecordedPasses *int           `json:"recorded_passes"`
			Removed        map[string]int `json:"removed"`
			Trusted        *int           `json:"trusted"`
			TrustedRate    struct {
				Value  *float64
				Wilson []*float64
			} `json:"trusted_rate"`
			D4 map[string]any `json:"d4"`
		} `json:"per_agent"`
	}
	if err := json.Unmarshal(b, &shape); err != nil {
		t.Fatal(err)
	}
	a := shape.PerAgent[0]
	if a.RecordedPasses == nil || a.Trusted == nil || len(a.Removed) != 4 || a.TrustedRate.Value == nil || len(a.TrustedRate.Wilson) != 2 {
		t.Errorf("per_agent row shape: %s", b)
	}
	for _, k := range []string{"varied_rate", "sigma2_between", "sigma2_within", "rho", "pass_hat_k"} {
		if _, ok := a.D4[k]; !ok {
			t.Errorf("d4.%s missing in %s", k, b)
		}
	}
	if got := a.D4["pass_hat_k"].([]any); len(got) != 3 || got[0].(float64) <= 0 {
		t.Errorf("pass_hat_k = %v, want 3 values (3 trials per task)", got)
	}
}
