package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headerEcho answers every call with 200 and the request's headers: as an
// unparseable body (envelope) or, well wrapped, as the model's text.
func headerEcho(t *testing.T, format string, wrapped bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for k, v := range r.Header {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(v, ","))
		}
		if !wrapped {
			fmt.Fprintf(w, "debug echo\n%s", b.String())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		text := "I was called with " + b.String()
		if format == "openai" {
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": text}}}})
		} else {
			json.NewEncoder(w).Encode(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// noSecretIn fails when a file under root holds one of the secrets.
func noSecretIn(t *testing.T, root string, secrets ...string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			for _, s := range secrets {
				if bytes.Contains(b, []byte(s)) {
					t.Errorf("%s holds a secret", p)
				}
			}
		}
		return nil
	})
}

// A server echoing the request headers in a 200 reply gets the API key
// back into warnings, the final error, the summary and the stored raw
// text: every one of them goes through the one redaction.
func TestEchoedKeyIsRedactedEverywhere(t *testing.T) {
	const otherKey = "sk-ant-other-key-9876543210"
	for _, format := range []string{"openai", "anthropic"} {
		for _, wrapped := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/wrapped=%v", format, wrapped), func(t *testing.T) {
				srv := headerEcho(t, format, wrapped)
				h := HTTPOptions{BaseURL: srv.URL, APIKey: testKey, Secrets: Redactor{otherKey}}
				var b Backend = &OpenAI{h}
				if format == "anthropic" {
					b = &Anthropic{h}
				}
				var logs bytes.Buffer
				l := testLake(t, manyEpisodes(t, 2), []string{E1Final})
				sum, err := Run(t.Context(), l, RunOptions{Judge: "j", Model: "m", Runs: 1, Conditions: []JudgeCondition{{E1Final, E1Final}},
					Backend: b, MaxRetries: 1, RetryBase: 1, MaxFailures: 1, Concurrency: 1, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
				js, _ := json.Marshal(sum)
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if wrapped {
					rows := verdictRows(t, l)
					if err != nil || len(rows) != 2 || rows[0].Raw == nil || !strings.Contains(*rows[0].Raw, redactedMark) {
						t.Fatalf("want two parse_error rows with the key redacted: %v %+v", err, rows)
					}
				} else if err == nil || !strings.Contains(msg, "malformed") || !strings.Contains(msg, redactedMark) || !strings.Contains(logs.String(), redactedMark) {
					t.Fatalf("want a malformed-reply error with the key redacted: %v\nlogs: %s", err, logs.String())
				}
				for _, s := range []string{testKey, otherKey} {
					if strings.Contains(msg, s) || strings.Contains(logs.String(), s) || strings.Contains(string(js), s) {
						t.Errorf("secret %s in the error %q, the logs %q or the summary %s", s, msg, logs.String(), js)
					}
				}
				noSecretIn(t, l.Root(), testKey, otherKey)
			})
		}
	}
}

func TestRedactErrKeepsCallError(t *testing.T) {
	r := Redactor{"secret-123"}
	err := r.RedactErr(fmt.Errorf("call: %w", &CallError{Status: 429, Retryable: true, Msg: "echo secret-123"}))
	var ce *CallError
	if !errors.As(err, &ce) || !ce.Retryable || ce.Status != 429 || strings.Contains(err.Error(), "secret-123") || strings.Contains(ce.Msg, "secret-123") {
		t.Errorf("got %v (%+v)", err, ce)
	}
}
