package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// Fuzzers for every input decoder that can turn a failure into a pass.
// Each is seeded with a repeated-key and a type-confusion input, and checks
// properties against an independent reading with encoding/json: an accepted
// input never repeats a key, and the values that decide a pass have the
// JSON type the format declares.

// hasRepeatedKey is the reference for checkKeys: encoding/json's
// tokenizer, one set of case-folded keys per open object; nesting deeper
// than maxNesting counts as found too.
func hasRepeatedKey(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []map[string]bool
	expectKey := func() bool {
		return len(stack) > 0 && stack[len(stack)-1] != nil
	}
	var inObject []bool
	keyNext := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				if len(stack) >= maxNesting {
					return true
				}
				stack = append(stack, map[string]bool{})
				inObject = append(inObject, true)
				keyNext = true
				continue
			case '[':
				if len(stack) >= maxNesting {
					return true
				}
				stack = append(stack, nil)
				inObject = append(inObject, false)
			case '}', ']':
				stack = stack[:len(stack)-1]
				inObject = inObject[:len(inObject)-1]
			}
		case string:
			if keyNext && expectKey() {
				m, k := stack[len(stack)-1], strings.ToLower(t)
				if m[k] {
					return true
				}
				m[k] = true
				keyNext = false
				continue
			}
		}
		keyNext = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

func TestCheckKeysAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range []string{
		`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":[{"b":1},{"b":2}]}`, `{"a":1,"\u0061":2}`,
		`{"a":{"a":1}}`, `[{"x":1,"y":{"x":2}},{"x":3,"x":4}]`, `{"k":"a","v":"a"}`, `{}`, `[]`, `"s"`,
		`{"verdict":"failure","Verdict":"success"}`, `{"a":{"VERDICT":1,"verdict":2}}`,
		strings.Repeat(`{"k":`, maxNesting) + "1" + strings.Repeat("}", maxNesting),
		strings.Repeat(`{"k":`, maxNesting+1) + "1" + strings.Repeat("}", maxNesting+1),
		strings.Repeat(`[`, maxNesting+1) + strings.Repeat("]", maxNesting+1),
	} {
		fe, _ := checkKeys([]byte(c))
		if got, want := fe != nil, hasRepeatedKey([]byte(c)); got != want {
			t.Errorf("%.60s: checkKeys %v, encoding/json %v", c, fe, want)
		}
	}
}

func FuzzRepeatedKey(f *testing.F) {
	for _, c := range []string{`{"pass":false,"pass":true}`, `{"a":[{"b":1,"b":2}]}`, `{"p\u0061ss":1,"pass":2}`} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		if fe, _ := checkKeys(b); (fe != nil) != hasRepeatedKey(b) {
			t.Fatalf("checkKeys %v, encoding/json disagrees on %q", fe, b)
		}
	})
}

func FuzzDecodeGroundTruth(f *testing.F) {
	for _, c := range []string{
		`{"episode_id":"ep1","verifier_sha256":"abababababababababababababababababababababababababababababababab","pass":false,"category":"F-ABORT","score":0.5,"gates":[{"id":"g","type":"critical","passed":false}],"deterministic":true}`,
		`{"episode_id":"ep1","verifier_sha256":"abababababababababababababababababababababababababababababababab","pass":false,"category":"F-ABORT","pass":true}`, // repeated key
		`{"episode_id":"ep1","verifier_sha256":"abababababababababababababababababababababababababababababababab","pass":"true","score":"1"}`,                     // type confusion
		`{"episode_id":"ep1","verifier_sha256":"abababababababababababababababababababababababababababababababab","pass":true,"score":5}`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, _, err := parseObject(data)
		if err != nil {
			return
		}
		var g schema.GroundTruth
		if _, err := decodeGroundTruth(fields, data, &g); err != nil {
			return
		}
		var ref map[string]any
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatalf("accepted, but encoding/json refuses %q: %v", data, err)
		}
		if hasRepeatedKey(data) {
			t.Fatalf("accepted a repeated key: %q", data)
		}
		if p, ok := ref["pass"].(bool); !ok || p != g.Pass {
			t.Fatalf("pass %v, encoding/json reads %#v", g.Pass, ref["pass"])
		}
		if g.Score != nil && (*g.Score < 0 || *g.Score > 1) {
			t.Fatalf("score %v accepted", *g.Score)
		}
	})
}

func FuzzDecodeResults(f *testing.F) {
	for _, c := range []string{
		`{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":0.5,"pass":false}`,
		`{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":0,"pass":false,"pass":true}`, // repeated key
		`{"benchmark":"b","task_id":"t","agent":"a","trial":"0","score":"1","pass":"true"}`,        // type confusion
		`{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":0} {"pass":true}`,
		"",
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []schema.Result
		err := DecodeResults(bytes.NewReader(data), "r.jsonl", func(r schema.Result) error {
			got = append(got, r)
			return nil
		})
		var recs RecordErrors
		if err != nil && !errors.As(err, &recs) {
			t.Fatalf("non-record error: %v", err)
		}
		if len(got) == 0 && err == nil {
			t.Fatal("no records and no error")
		}
		lines := bytes.Split(data, []byte("\n"))
		for _, r := range got {
			line := bytes.TrimSuffix(lines[r.SrcLine-1], []byte("\r"))
			var ref map[string]any
			if err := json.Unmarshal(line, &ref); err != nil || hasRepeatedKey(line) {
				t.Fatalf("accepted line %d %q (encoding/json: %v)", r.SrcLine, line, err)
			}
			if p, ok := ref["pass"]; ok && p != nil {
				if b, ok := p.(bool); !ok || b != r.RecordedPass {
					t.Fatalf("pass %v from %#v", r.RecordedPass, p)
				}
			}
			if _, ok := ref["score"].(float64); !ok {
				t.Fatalf("score %#v accepted", ref["score"])
			}
		}
	})
}

func FuzzDecodeTauBench(f *testing.F) {
	rec := func(reward, trial, extra string) string {
		return `{"task_id": 1, "reward": ` + reward + `, "trial": ` + trial + `, "info": {"task": {"user_id": "u", "instruction": "i", "actions": [], "outputs": []}}, "traj": [{"role": "assistant", "content": "Done."}]` + extra + `}`
	}
	for _, c := range []string{
		"[" + rec("1.0", "0", "") + "]",
		"[" + rec("0.0", "0", `, "reward": 1.0`) + "]", // repeated key
		"[" + rec(`"1"`, `"0"`, "") + "]",              // type confusion
		"[" + rec("0.0", "0", "") + "] []",
		"[]",
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []schema.Result
		err := DecodeTauBench(bytes.NewReader(data), "gpt-4o-airline.json", TauBenchOptions{}, func(r schema.Result, _ []schema.Action) error {
			got = append(got, r)
			return nil
		})
		var recs RecordErrors
		if err != nil && !errors.As(err, &recs) {
			t.Fatalf("non-record error: %v", err)
		}
		for _, r := range got {
			if r.RecordedPass && r.RecordedScore < 1-1e-9 {
				t.Fatalf("pass with score %v", r.RecordedScore)
			}
		}
		if err != nil || len(got) == 0 {
			return
		}
		var ref []map[string]any
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatalf("accepted without errors, but encoding/json refuses %q: %v", data, err)
		}
		if hasRepeatedKey(data) {
			t.Fatalf("accepted a file with a repeated key: %q", data)
		}
		for _, m := range ref {
			if _, ok := m["reward"].(float64); !ok {
				t.Fatalf("reward %#v accepted", m["reward"])
			}
		}
	})
}

func FuzzLabelsCSV(f *testing.F) {
	for _, c := range []string{
		"episode_id,category\nep1,F-ABORT\n",
		"episode_id,category\nep1,F-ABORT\nep1,F-CLAIM\n", // repeated key (episode_id)
		"episode_id,category\nep2,\"F-ABORT\nep3,x\n",     // stray quote: used to panic
		"episode_id,category,annotator,note\n\"ep\"\"4\",1,2,3,4\n",
		"episode_id,category\n",
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		b, err := begin(t.Context(), l, Options{MaxLineBytes: 256})
		if err != nil {
			t.Fatal(err)
		}
		defer b.tx.Rollback()
		if err := b.labelStream(t.Context(), bytes.NewReader(data), "l.csv"); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("non-record error: %v", err)
		}
		for _, e := range b.errs {
			if e.Line < 0 || e.Error() == "" {
				t.Fatalf("bad record error %#v", e)
			}
		}
	})
}

// TestTauBenchRecordCapped: a τ-bench record is held in memory whole; one
// longer than MaxRecordBytes stops the file with ErrTooLong instead.
func TestTauBenchRecordCapped(t *testing.T) {
	big := `[{"task_id": 1, "reward": 0, "trial": 0, "info": {"task": {"user_id": "u", "instruction": "` +
		string(bytes.Repeat([]byte("x"), 64<<10)) + `"}}, "traj": []}]`
	err := DecodeTauBench(bytes.NewReader([]byte(big)), "a-airline.json", TauBenchOptions{MaxRecordBytes: 4 << 10}, func(schema.Result, []schema.Action) error { return nil })
	var recs RecordErrors
	if !errors.As(err, &recs) || len(recs) != 1 || !errors.Is(recs[0], schema.ErrTooLong) {
		t.Fatalf("got %v, want one ErrTooLong", err)
	}
}
