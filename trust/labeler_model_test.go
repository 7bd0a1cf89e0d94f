package trust

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/schema"
)

// fakeChat is a local chat-completions server answering from a script of
// replies, recording each request.
type fakeChat struct {
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
}

func (f *fakeChat) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(raw, &body)
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if n == 0 { // the first call fails once: the labeller retries
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
		return
	}
	reply := f.replies[(n-1)%len(f.replies)]
	json.NewEncoder(w).Encode(map[string]any{"model": "judge-x", "choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": reply}}}})
}

func labeler(t *testing.T, replies ...string) (*ModelLabeler, *fakeChat) {
	f := &fakeChat{replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return &ModelLabeler{Backend: &judge.OpenAI{HTTPOptions: judge.HTTPOptions{BaseURL: srv.URL}}, Model: "judge-x", Retries: 2, RetryBase: 1}, f
}

func TestModelLabelerStrictMajority(t *testing.T) {
	yes, no := `{"required_computation": true, "reason": "a refund must be computed"}`, `{"required_computation": false}`
	acts := cancelTraj("x", cancelArgs, cancelled, "Cancelled; your refund of $2,544 is on its way.")
	in := Input{Records: []Record{{Result: tauResult("1", 0, 1, schema.TauBenchGrader{Actions: []schema.GoldAction{gold("cancel_reservation", cancelArgs)}}, *acts[6].Text), Actions: acts}}}
	qs := Suspects(in.Records[0], Options{})
	if len(qs) != 1 || qs[0].Value != "2544" {
		t.Fatalf("suspects %+v", qs)
	}
	for _, c := range []struct {
		name    string
		replies []string
		want    string
	}{
		{"two of three yes", []string{yes, no, yes}, schema.D2Gamed},
		{"one of three yes", []string{yes, no, no}, schema.D2Clean},
		{"an unreadable reply votes no", []string{yes, "I think so", no}, schema.D2Clean},
	} {
		t.Run(c.name, func(t *testing.T) {
			lab, f := labeler(t, c.replies...)
			v, err := lab.Votes(t.Context(), qs[0])
			if err != nil {
				t.Fatal(err)
			}
			votes := map[VoteKey][]bool{{qs[0].ResultID, qs[0].Value}: v[:]}
			_, rows := Audit(Input{Records: in.Records, Votes: votes}, Options{})
			if rows[0].D2Status != c.want || !strings.Contains(rows[0].Reasons, `"d2_votes":{"2544":[`) {
				t.Errorf("D2 %s (%s), want %s", rows[0].D2Status, rows[0].Reasons, c.want)
			}
			if len(f.bodies) != 4 { // one 429, then three votes
				t.Fatalf("%d requests, want 4", len(f.bodies))
			}
			b := f.bodies[1]
			m := b["messages"].([]any)[0].(map[string]any)
			text := m["content"].([]any)[0].(map[string]any)["text"].(string)
			if b["model"] != "judge-x" || b["temperature"] != 0.0 || m["role"] != "user" || !strings.Contains(text, `"2544"`) || !strings.Contains(text, "cancel reservation ABC123") {
				t.Errorf("request %v", b)
			}
		})
	}
}

func TestModelLabelerGateType(t *testing.T) {
	for _, c := range []struct {
		replies []string
		want    string
	}{
		{[]string{`{"type": "process"}`, `{"type": "process"}`, `{"type": "critical"}`}, schema.GateProcess},
		{[]string{`{"type": "process"}`, `{"type": "administrative"}`, `{"type": "critical"}`}, schema.GateCritical},
		{[]string{`{"type": "administrative"}`, `nonsense`, `{"type": "administrative"}`}, schema.GateAdministrative},
	} {
		lab, _ := labeler(t, c.replies...)
		got, votes, err := lab.GateType(t.Context(), "Save the report as report.pdf", "file_name")
		if err != nil || got != c.want {
			t.Errorf("%v: got %s (%v), want %s", c.replies, got, votes, c.want)
		}
	}
}
