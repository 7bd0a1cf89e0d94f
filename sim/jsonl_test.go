package sim

import (
	"encoding/json"
	"math"
	"testing"
	"time"
	"unicode/utf8"
)

func TestVerdictLineFormat(t *testing.T) {
	o := smallOptions().withDefaults()
	p := &plan{opts: o}
	w := newVerdictWriter(p, nil)
	at := time.Date(2026, 10, 11, 9, 0, 33, 0, time.UTC)
	cases := []struct {
		name  string
		judge int
		cond  int
		out   run
		want  string
	}{
		{"vlm success", 0, 0, run{verdict: "success", score: math.NaN(), confidence: 0.8712},
			`{"episode_id":"ep","judge":"sim:vlm-a","condition":"E1-final","run":2,"verdict":"success","score":null,"confidence":0.87,"model":"sim:vlm-a@1","called_at":"2026-10-11T09:00:33Z"}` + "\n"},
		{"reward model score only", 2, 3, run{score: 0.71554, confidence: math.NaN()},
			`{"episode_id":"ep","judge":"sim:rm-1","condition":"E2+claim","run":2,"verdict":null,"score":0.7155,"confidence":null,"model":"sim:rm-1@1","called_at":"2026-10-11T09:00:33Z"}` + "\n"},
		{"parse error", 1, 2, run{verdict: "parse_error", score: math.NaN(), confidence: math.NaN()},
			`{"episode_id":"ep","judge":"sim:vlm-b","condition":"E3-full","run":2,"verdict":"parse_error","score":null,"confidence":null,"model":"sim:vlm-b@1","called_at":"2026-10-11T09:00:33Z"}` + "\n"},
	}
	for _, tc := range cases {
		if got := string(w.appendRow(nil, "ep", tc.judge, tc.cond, 2, tc.out, at)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestScoreRound(t *testing.T) {
	cases := []struct{ in, want float64 }{
		{0.49996, 0.4999}, {0.5, 0.5}, {0.50004, 0.5}, {0.12345, 0.1235}, {1, 1}, {0, 0},
	}
	for _, tc := range cases {
		if got := scoreRound(tc.in); got != tc.want {
			t.Errorf("scoreRound(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "sim:vlm-a", `q"uote\back`, "tab\tnl\n\x00\x1f", "ünï©ødé ✓"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("names are UTF-8")
		}
		b := appendString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: invalid JSON: %v", s, b, err)
		}
		if got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	})
}
