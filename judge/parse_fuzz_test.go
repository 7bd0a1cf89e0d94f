package judge

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseReply: a reply ParseReply accepts holds each top-level key once
// (no repeats, no case variants), a valid verdict or a score, and a
// confidence in [0, 1].
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"verdict": "success", "confidence": 0.9, "evidence": "x"}`,
		`{"verdict":"failure","verdict":"success"}`,
		`{"VERDICT":"success"}`,
		`{"verdict":"failure","Verdict":"success"}`,
		"```json\n{\"verdict\": \"uncertain\"}\n```",
		`{"score": 0.3}`,
		`{"verdict":"success","x":{"a":[1,{"b":2}]}}`,
		`{"verdict":"success"} {"verdict":"failure"}`,
		`{"verdict":"succe\u0073s","ſcore":1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := ParseReply(text)
		if v.Verdict == "parse_error" {
			if len(v.Raw) > maxRaw+len(truncatedNote) {
				t.Fatalf("raw of %d bytes", len(v.Raw))
			}
			return
		}
		switch v.Verdict {
		case "success", "failure", "uncertain":
		case "":
			if v.Score == nil {
				t.Fatalf("accepted %q with neither verdict nor score", text)
			}
		default:
			t.Fatalf("accepted %q with verdict %q", text, v.Verdict)
		}
		if v.Confidence != nil && (*v.Confidence < 0 || *v.Confidence > 1) {
			t.Fatalf("confidence %v", *v.Confidence)
		}
		s := strings.TrimSpace(text)
		if strings.HasPrefix(s, "```") {
			s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("accepted %q: not an object", text)
		}
		counts := map[string]int{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatalf("accepted %q: %v", text, err)
			}
			for _, want := range []string{"verdict", "confidence", "score", "evidence"} {
				if strings.EqualFold(k.(string), want) {
					if k.(string) != want {
						t.Fatalf("accepted %q with key %q", text, k)
					}
					counts[want]++
				}
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatalf("accepted %q: %v", text, err)
			}
		}
		for k, n := range counts {
			if n != 1 {
				t.Fatalf("accepted %q with %d %q keys", text, n, k)
			}
		}
		if (v.Verdict != "") != (counts["verdict"] == 1) {
			t.Fatalf("accepted %q: verdict %q but %d verdict keys", text, v.Verdict, counts["verdict"])
		}
	})
}
