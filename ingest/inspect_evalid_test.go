package ingest

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestBlake2s128 checks the digest against Python's
// hashlib.blake2s(msg, digest_size=16).hexdigest().
func TestBlake2s128(t *testing.T) {
	cases := []struct{ msg, want string }{
		{"", "64550d6ffe2c0a01a14aba1eade0200c"},
		{"abc", "aa4938119b1dc7b87cbad0ffd200d0ae"},
		{strings.Repeat("x", 64), "e1d5fb352cad2589b30d4f38821b1608"},
		{strings.Repeat("y", 65), "e9033ccbeb377e9a81f9d37acbca2614"},
	}
	for _, c := range cases {
		sum := blake2s128([]byte(c.msg))
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("blake2s128(%d bytes) = %s, want %s", len(c.msg), got, c.want)
		}
	}
}

// TestEvalIDLegacy: a log without eval_id (inspect-ai 0.3.90) gets the id
// inspect-ai 0.3.285's reader derives (reference.json of the legacy fixture).
func TestEvalIDLegacy(t *testing.T) {
	e := inspectEval{RunID: "WC3kc6KKPgegGruvMkZ5Bg", TaskID: "JPewHBp2yrostMWcgTN6sA", Created: "2026-12-01T02:13:33+00:00"}
	if got, want := e.evalID(), "e2fDgG8isTwPejhn3ADG9B"; got != want {
		t.Errorf("evalID = %s, want %s", got, want)
	}
	e.EvalID = "given"
	if got := e.evalID(); got != "given" {
		t.Errorf("evalID with eval_id = %s", got)
	}
}
