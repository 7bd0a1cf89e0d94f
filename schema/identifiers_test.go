package schema

import (
	"errors"
	"strings"
	"testing"
)

// TestIdentifierRules: identifiers that display alike or hide control
// sequences are refused by every Validate (issue 24 item 19).
func TestIdentifierRules(t *testing.T) {
	for _, c := range []struct {
		name, v string
		want    error // nil: accepted
		reason  string
	}{
		{"ascii", "sim:vlm-a", nil, ""},
		{"NFC accent", "juge-\u00e9", nil, ""},
		{"CJK", "评审员", nil, ""},
		{"NFD accent", "juge-e\u0301", ErrValue, "not in Unicode NFC"},
		{"replacement char (lone surrogate)", "ep_\ufffd", ErrEncoding, "U+FFFD"},
		{"RLO", "judge\u202egpj", ErrValue, "bidirectional control U+202E"},
		{"LRI", "judge\u2066x", ErrValue, "bidirectional control U+2066"},
		{"C1 CSI", "judge\u009b31m", ErrValue, "control character U+009B"},
		{"NUL", "agent\x00", ErrValue, "control character U+0000"},
		{"invalid UTF-8", "ep\xff", ErrEncoding, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := &Verdict{EpisodeID: "ep1", Judge: c.v, Condition: "E1-final", Run: 1, Verdict: new(string)}
			*v.Verdict = VerdictSuccess
			err := v.Validate()
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.reason) || !strings.HasPrefix(err.Error(), "judge: ") {
				t.Errorf("got %v, want judge: %v …%s", err, c.want, c.reason)
			}
			if checkPartition("", c.v) == nil || checkID("", c.v) == nil {
				t.Errorf("checkPartition/checkID accept %q", c.v)
			}
			r := &Result{ResultID: c.v, Benchmark: "b", TaskID: "t", Agent: c.v, RecordedScore: 1}
			if err := r.Validate(); !errors.Is(err, c.want) {
				t.Errorf("result: %v, want %v", err, c.want)
			}
		})
	}
}

// TestGroundTruthRules: a verifier hash is 64 lower-case hex digits; gate
// ids are unique; a pass cannot carry a failed critical gate.
func TestGroundTruthRules(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	for _, c := range []struct {
		name  string
		g     GroundTruth
		field string // "" means accepted
	}{
		{"ok", GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Gates: `[{"id":"a","type":"critical","passed":true}]`, Pass: true}, ""},
		{"failed critical on a failure", GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Gates: `[{"id":"a","type":"critical","passed":false}]`}, ""},
		{"failed process gate on a pass", GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Gates: `[{"id":"a","type":"process","passed":false}]`, Pass: true}, ""},
		{"short hash", GroundTruth{EpisodeID: "e", VerifierSHA256: "abc"}, "verifier_sha256"},
		{"upper-case hash", GroundTruth{EpisodeID: "e", VerifierSHA256: strings.ToUpper(sha)}, "verifier_sha256"},
		{"duplicate gate", GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Gates: `[{"id":"a","type":"process","passed":true},{"id":"a","type":"critical","passed":false}]`}, "gates[1].id"},
		{"pass with failed critical", GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Gates: `[{"id":"save","type":"critical","passed":false}]`, Pass: true}, "pass"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.g.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if fe := SplitFieldErrors(err); len(fe) != 1 || fe[0].Field != c.field {
				t.Errorf("got %v, want one error on %s", err, c.field)
			}
		})
	}
}

// TestPrintableASCII: the eight-bytes-at-a-time test agrees with a byte
// loop for every byte value at every position of a word and of the tail.
func TestPrintableASCII(t *testing.T) {
	for n := 1; n <= 19; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				want := c >= 0x20 && c < 0x7f
				if got := printableASCII(string(b)); got != want {
					t.Fatalf("%q: %v, want %v", b, got, want)
				}
			}
		}
	}
}
