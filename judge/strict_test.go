package judge

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A reply must say each rubric key once, spelled as the rubric spells it:
// encoding/json lets the last repeated key win and matches keys
// case-insensitively, which turned failures into successes.
func TestParseReplyRefusesRepeatedAndCaseVariantKeys(t *testing.T) {
	bad := []string{
		`{"verdict":"failure","verdict":"success"}`,
		`{"VERDICT":"success"}`,
		`{"verdict":"failure","Verdict":"success"}`,
		`{"Verdict":"success","confidence":0.9}`,
		`{"verdict":"failure","confidence":0.2,"evidence":"x","confidence":0.9}`,
		`{"verdict":"success","evidence":"a","EVIDENCE":"b"}`,
		`{"verdict":"success","ſcore":1}`, // U+017F folds to s: encoding/json would fill score
		`{"score":0.1,"score":0.9}`,
		"```json\n{\"verdict\":\"failure\",\"verdict\":\"success\"}\n```",
		`{"verdict":"success"}{"verdict":"failure"}`,
		`{"verdict":"success","x":{"a":1,"a":2}}`,
	}
	for _, in := range bad {
		if got := ParseReply(in); got.Verdict != "parse_error" || got.Raw == "" {
			t.Errorf("%s: got %+v, want parse_error with the raw text", in, got)
		}
	}
	good := map[string]string{
		`{"verdict":"failure","confidence":0.4,"evidence":"unsaved","reasoning":"extra keys are fine"}`: "failure",
		`{"verdict":"success","x":{"a":1,"b":[{"a":1},{"a":2}]}}`:                                       "success",
	}
	for in, want := range good {
		if got := ParseReply(in); got.Verdict != want {
			t.Errorf("%s: got %q, want %q", in, got.Verdict, want)
		}
	}
}

// rawServer answers every request with the given body.
func rawServer(t *testing.T, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func bareRequest() *Request {
	return &Request{Pack: &Pack{}, Prompt: "is the task done?", Model: "m", MaxTokens: 10}
}

// The response envelope is decoded as strictly: two "choices" arrays or two
// "content" arrays are a malformed reply, not the last one's verdict.
func TestEnvelopeRefusesRepeatedKeys(t *testing.T) {
	const fail, succ = `"{\"verdict\":\"failure\"}"`, `"{\"verdict\":\"success\"}"`
	cases := []struct {
		name, format, body string
	}{
		{"openai two choices", "openai", `{"model":"m","choices":[{"message":{"content":` + fail + `}}],"choices":[{"message":{"content":` + succ + `}}]}`},
		{"openai two contents", "openai", `{"choices":[{"message":{"content":` + fail + `,"content":` + succ + `}}]}`},
		{"openai Choices", "openai", `{"Choices":[{"message":{"content":` + succ + `}}]}`},
		{"openai Content", "openai", `{"choices":[{"message":{"Content":` + succ + `}}]}`},
		{"anthropic two contents", "anthropic", `{"content":[{"type":"text","text":` + fail + `}],"content":[{"type":"text","text":` + succ + `}]}`},
		{"anthropic two texts", "anthropic", `{"content":[{"type":"text","text":` + fail + `,"text":` + succ + `}]}`},
		{"anthropic Type", "anthropic", `{"content":[{"type":"text","Type":"text","text":` + succ + `}]}`},
		{"rm two scores", "rm", `{"score":0.1,"score":0.9}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := rawServer(t, c.body)
			h := HTTPOptions{BaseURL: srv.URL}
			var b Backend = &OpenAI{h}
			switch c.format {
			case "anthropic":
				b = &Anthropic{h}
			case "rm":
				b = &RMHTTP{h}
			}
			reply, err := b.Call(t.Context(), bareRequest())
			var ce *CallError
			if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "malformed") {
				t.Fatalf("got reply %+v, error %v; want a malformed-reply error", reply, err)
			}
		})
	}
	// The well-formed envelope of the same shape is read.
	srv := rawServer(t, `{"model":"m","choices":[{"message":{"content":`+fail+`}}]}`)
	reply, err := (&OpenAI{HTTPOptions{BaseURL: srv.URL}}).Call(t.Context(), bareRequest())
	if err != nil || ParseReply(reply.Text).Verdict != "failure" {
		t.Fatalf("%+v %v", reply, err)
	}
}

// Through the runner, a reply with a repeated verdict is stored as a
// parse_error with its raw text.
func TestRepeatedVerdictStoredAsParseError(t *testing.T) {
	api := newFakeAPI(t, "anthropic")
	api.reply = func(map[string]any) string { return `{"verdict":"failure","confidence":0.9,"verdict":"success"}` }
	l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "c", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &Anthropic{HTTPOptions{BaseURL: api.srv.URL}}})
	if err != nil || sum.ParseErrors != 1 {
		t.Fatalf("%v %+v", err, sum)
	}
	if v := verdictRows(t, l)[0]; *v.Verdict != "parse_error" || v.Raw == nil || !strings.Contains(*v.Raw, `"verdict":"success"`) {
		t.Errorf("row %+v", v)
	}
}
