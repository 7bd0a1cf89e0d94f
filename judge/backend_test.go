package judge

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789abcdef"

// fakeAPI is a local server speaking one wire format. Each request is
// recorded; fault(n) may inject a failure into request n (0-based).
type fakeAPI struct {
	t      *testing.T
	mu     sync.Mutex
	reqs   []recorded
	fault  func(n int, w http.ResponseWriter) bool // true: handled (failed)
	reply  func(body map[string]any) string        // the model's text
	format string                                  // openai, anthropic, rm
	srv    *httptest.Server
}

type recorded struct {
	path   string
	header http.Header
	body   map[string]any
	at     time.Time
}

func newFakeAPI(t *testing.T, format string) *fakeAPI {
	f := &fakeAPI{t: t, format: format, reply: func(map[string]any) string {
		return `{"verdict": "failure", "confidence": 0.7, "evidence": "title bar shows an unsaved marker"}`
	}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(raw, &body)
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{path: r.URL.Path, header: r.Header.Clone(), body: body, at: time.Now()})
	f.mu.Unlock()
	if f.fault != nil && f.fault(n, w) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	text := f.reply(body)
	switch f.format {
	case "openai":
		json.NewEncoder(w).Encode(map[string]any{"id": "c1", "model": "vlm-x-2026-10-01", "choices": []any{map[string]any{
			"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage": map[string]any{"prompt_tokens": 1234, "completion_tokens": 56}})
	case "anthropic":
		json.NewEncoder(w).Encode(map[string]any{"id": "m1", "type": "message", "role": "assistant", "model": "claude-x-20261001",
			"content": []any{map[string]any{"type": "text", "text": text}}, "usage": map[string]any{"input_tokens": 987, "output_tokens": 65}})
	case "rm":
		json.NewEncoder(w).Encode(map[string]any{"score": 0.8125, "model": "orm-7b"})
	}
}

func (f *fakeAPI) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// Faults.
func status(code int, retryAfter string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
		io.WriteString(w, `{"error": {"message": "try later"}}`)
	}
}

func malformedBody(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"choices": [{"message": {"content": "{\"verdict\"`)
}

func truncated(w http.ResponseWriter) {
	w.Header().Set("Content-Length", "500")
	w.WriteHeader(200)
	io.WriteString(w, `{"choices": [`)
	conn, _, _ := w.(http.Hijacker).Hijack()
	conn.Close()
}

func reset(w http.ResponseWriter) {
	conn, _, _ := w.(http.Hijacker).Hijack()
	conn.(*net.TCPConn).SetLinger(0)
	conn.Close()
}

func slow(w http.ResponseWriter) { time.Sleep(1500 * time.Millisecond) }

func onFirst(fault func(http.ResponseWriter)) func(int, http.ResponseWriter) bool {
	return func(n int, w http.ResponseWriter) bool {
		if n == 0 {
			fault(w)
			return true
		}
		return false
	}
}

// oneEpisodeLake is a lake with one 3-step screen episode packed under E2-lastk.
func oneEpisodeLake(t *testing.T) *Source {
	return screenEpisode(t, t.TempDir(), "ep1", 3, 30, 20)
}

func TestOpenAIWireFormat(t *testing.T) {
	api := newFakeAPI(t, "openai")
	src := oneEpisodeLake(t)
	l := testLake(t, []*Source{src}, []string{E2LastK})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", BackendName: "openai", Model: "vlm-x", Runs: 1,
		Conditions: []JudgeCondition{{E2LastK, E2LastK}}, Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL + "/v1", APIKey: testKey}}})
	if err != nil || sum.Verdicts != 1 {
		t.Fatalf("run: %v %+v", err, sum)
	}
	reqs := api.requests()
	r := reqs[0]
	if r.path != "/v1/chat/completions" || r.header.Get("Authorization") != "Bearer "+testKey || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("path %s, headers %v", r.path, r.header)
	}
	if r.body["model"] != "vlm-x" || r.body["temperature"] != 0.0 {
		t.Errorf("model %v temperature %v", r.body["model"], r.body["temperature"])
	}
	msgs := r.body["messages"].([]any)
	m := msgs[0].(map[string]any)
	parts := m["content"].([]any)
	if len(msgs) != 1 || m["role"] != "user" || len(parts) != 4 {
		t.Fatalf("messages %v", msgs)
	}
	text := parts[0].(map[string]any)
	if text["type"] != "text" || !strings.Contains(text["text"].(string), "TASK:\nIn q3_budget.ods") || !strings.Contains(text["text"].(string), "Any text written by the agent is a claim") {
		t.Errorf("text part %v", text)
	}
	pack := storedPack(t, l)
	for i, p := range parts[1:] {
		pm := p.(map[string]any)
		url := pm["image_url"].(map[string]any)["url"].(string)
		data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
		if pm["type"] != "image_url" || !strings.HasPrefix(url, "data:image/png;base64,") || err != nil || !bytes.Equal(data, pack.Images[i].Data) {
			t.Errorf("image part %d: not the pack's PNG as a data URL", i)
		}
	}
	v := verdictRows(t, l)[0]
	if *v.Verdict != "failure" || *v.Confidence != 0.7 || *v.Model != "vlm-x-2026-10-01" || *v.InputTokens != 1234 || *v.OutputTokens != 56 ||
		v.LatencyMS == nil || v.CalledAt == nil || *v.PromptSHA256 == "" || !strings.Contains(v.Extra, "unsaved marker") {
		t.Errorf("verdict row %+v", v)
	}
}

func storedPack(t *testing.T, l interface{ Root() string }) *Pack {
	t.Helper()
	var found *Pack
	filepath.WalkDir(filepath.Join(l.Root(), StoreDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && found == nil {
			data, _ := os.ReadFile(p)
			found, _ = DecodePack(data)
		}
		return nil
	})
	if found == nil {
		t.Fatal("no stored pack")
	}
	return found
}

func TestAnthropicWireFormat(t *testing.T) {
	api := newFakeAPI(t, "anthropic")
	src := oneEpisodeLake(t)
	l := testLake(t, []*Source{src}, []string{E2LastK})
	_, err := Run(t.Context(), l, RunOptions{Judge: "claude", BackendName: "anthropic", Model: "claude-x", Runs: 1,
		Conditions: []JudgeCondition{{E2LastK, E2LastK}}, Backend: &Anthropic{HTTPOptions{BaseURL: api.srv.URL, APIKey: testKey}}})
	if err != nil {
		t.Fatal(err)
	}
	r := api.requests()[0]
	if r.path != "/v1/messages" || r.header.Get("x-api-key") != testKey || r.header.Get("anthropic-version") != AnthropicVersion || r.header.Get("Authorization") != "" {
		t.Errorf("path %s headers %v", r.path, r.header)
	}
	if r.body["model"] != "claude-x" || r.body["temperature"] != 0.0 || r.body["max_tokens"] != 400.0 {
		t.Errorf("body %v", r.body)
	}
	m := r.body["messages"].([]any)[0].(map[string]any)
	content := m["content"].([]any)
	pack := storedPack(t, l)
	if m["role"] != "user" || len(content) != 4 {
		t.Fatalf("message %v", m)
	}
	for i, c := range content[:3] {
		src := c.(map[string]any)["source"].(map[string]any)
		data, err := base64.StdEncoding.DecodeString(src["data"].(string))
		if c.(map[string]any)["type"] != "image" || src["type"] != "base64" || src["media_type"] != "image/png" || err != nil || !bytes.Equal(data, pack.Images[i].Data) {
			t.Errorf("block %d is not the pack's PNG as a base64 image block", i)
		}
	}
	if last := content[3].(map[string]any); last["type"] != "text" || !strings.Contains(last["text"].(string), "Respond with JSON only") {
		t.Errorf("last block %v", last)
	}
	v := verdictRows(t, l)[0]
	if *v.Verdict != "failure" || *v.Model != "claude-x-20261001" || *v.InputTokens != 987 {
		t.Errorf("verdict row %+v", v)
	}
}

func TestRMHTTPWireFormat(t *testing.T) {
	api := newFakeAPI(t, "rm")
	src := oneEpisodeLake(t)
	l := testLake(t, []*Source{src}, []string{E1Final})
	_, err := Run(t.Context(), l, RunOptions{Judge: "orm", BackendName: "rm-http", Model: "orm-7b", Runs: 2,
		Conditions: []JudgeCondition{{E1Final, E1Final}}, Backend: &RMHTTP{HTTPOptions{BaseURL: api.srv.URL + "/score"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := api.requests()[0]
	shots := r.body["screenshots"].([]any)
	data, _ := base64.StdEncoding.DecodeString(shots[0].(string))
	if r.path != "/score" || r.body["instruction"] != src.TaskText || len(shots) != 1 || !bytes.Equal(data, storedPack(t, l).Images[0].Data) {
		t.Errorf("request %v", r.body)
	}
	for _, v := range verdictRows(t, l) {
		if v.Verdict != nil || v.Score == nil || *v.Score != 0.8125 || *v.Model != "orm-7b" {
			t.Errorf("reward-model row %+v: want the raw score, no verdict", v)
		}
	}
}

func TestExecBackend(t *testing.T) {
	dir := t.TempDir()
	src := oneEpisodeLake(t)
	l := testLake(t, []*Source{src}, []string{E2Claim})
	in := filepath.Join(dir, "stdin.json")
	cmd := "cat > " + in + `; echo '{"verdict": "success", "confidence": 1, "model": "my-script-v2"}'`
	_, err := Run(t.Context(), l, RunOptions{Judge: "script", BackendName: "exec", Runs: 1,
		Conditions: []JudgeCondition{{E2Claim, E2Claim}}, Backend: &Exec{Command: cmd}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(in)
	var got struct {
		PackSHA256 string          `json:"pack_sha256"`
		Prompt     string          `json:"prompt"`
		Pack       json.RawMessage `json:"pack"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	ev := evidenceRows(t, l)[0]
	if SHA256Hex(got.Pack) != ev.PackSHA256 || got.PackSHA256 != ev.PackSHA256 || !strings.Contains(got.Prompt, "Done! I saved the file.") {
		t.Errorf("stdin: pack hash %s, want %s", SHA256Hex(got.Pack), ev.PackSHA256)
	}
	v := verdictRows(t, l)[0]
	if *v.Verdict != "success" || *v.Model != "my-script-v2" || *v.PackSHA256 != ev.PackSHA256 {
		t.Errorf("row %+v", v)
	}
}

// Every injected fault is retried and the verdict obtained; Retry-After
// is honoured.
func TestFaultsAreRetried(t *testing.T) {
	cases := []struct {
		name  string
		fault func(http.ResponseWriter)
	}{
		{"429 with Retry-After", status(429, "1")},
		{"500", status(500, "")},
		{"503", status(503, "")},
		{"slow response", slow},
		{"malformed JSON", malformedBody},
		{"truncated body", truncated},
		{"connection reset", reset},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := newFakeAPI(t, "openai")
			api.fault = onFirst(c.fault)
			l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
			sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
				Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL, APIKey: testKey}}, RetryBase: 10 * time.Millisecond, Timeout: 500 * time.Millisecond})
			if err != nil || sum.Verdicts != 1 || sum.Retries != 1 || sum.Calls != 2 {
				t.Fatalf("%v: %+v", err, sum)
			}
			reqs := api.requests()
			if gap := reqs[1].at.Sub(reqs[0].at); c.name == "429 with Retry-After" && gap < 950*time.Millisecond {
				t.Errorf("retried after %s, Retry-After said 1s", gap)
			}
			if n := len(verdictRows(t, l)); n != 1 {
				t.Errorf("%d verdict rows", n)
			}
		})
	}
}

func TestParseErrorStoredRaw(t *testing.T) {
	api := newFakeAPI(t, "openai")
	long := "I think the task is done. " + strings.Repeat("x", 3000)
	api.reply = func(map[string]any) string { return long }
	l := testLake(t, []*Source{oneEpisodeLake(t)}, []string{E1Final})
	sum, err := Run(t.Context(), l, RunOptions{Judge: "vlm", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
		Backend: &OpenAI{HTTPOptions{BaseURL: api.srv.URL}}})
	if err != nil || sum.ParseErrors != 1 {
		t.Fatalf("%v %+v", err, sum)
	}
	v := verdictRows(t, l)[0]
	if *v.Verdict != "parse_error" || v.Raw == nil || !strings.HasPrefix(*v.Raw, "I think the task is done.") || len(*v.Raw) != maxRaw+len(truncatedNote) || !strings.HasSuffix(*v.Raw, truncatedNote) {
		t.Errorf("row %+v", v)
	}
}

func TestParseReply(t *testing.T) {
	cases := []struct{ in, verdict string }{
		{`{"verdict": "success", "confidence": 0.9, "evidence": "x"}`, "success"},
		{"```json\n{\"verdict\": \"uncertain\"}\n```", "uncertain"},
		{`{"verdict": "probably"}`, "parse_error"},
		{`{"verdict": "success", "confidence": 3}`, "parse_error"},
		{`Sure! {"verdict": "success"}`, "parse_error"},
		{`{"score": 0.3}`, ""},
	}
	for _, c := range cases {
		if got := ParseReply(c.in); got.Verdict != c.verdict {
			t.Errorf("%q: got %q, want %q", c.in, got.Verdict, c.verdict)
		}
	}
}
