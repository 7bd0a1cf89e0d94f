package ingest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trustlake/trustlake/schema"
)

// decodeJSON decodes b with encoding/json, numbers kept as text.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// FuzzScanObjectMatchesEncodingJSON is a differential test of the hand-written
// scanner against encoding/json on one line:
//   - validity: scanObject accepts exactly the lines that json.Valid accepts
//     and that are one object; the one deliberate exception is a top-level
//     NaN/Infinity/-Infinity value, which scans as kNonFinite so that the
//     decoders can name it (they always reject it);
//   - values: every field decodes, through the accessors the decoders use,
//     to what encoding/json gives for that key; nested values are kept as
//     raw JSON that decodes to the same value.
//
// Inputs that are not UTF-8 are skipped: the decoders reject them before
// scanning (checkLine), where encoding/json would substitute U+FFFD.
func FuzzScanObjectMatchesEncodingJSON(f *testing.F) {
	for _, c := range []string{
		`{"run":01}`, `{"run":1}`, `{"run":-0}`, `{"run":-01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`,
		`{"a":1.5e+3}`, `{"a":-}`, `{"a":+1}`, `{"a":0x1}`, `{"a":1-2}`, `{"a":[01]}`, `{"a":{"b":1.}}`,
		`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":["\u00e9\ud83d\ude00"]}`, `{"r\u0075n":2}`, `{"a":"\ud800"}`,
		`{"a":NaN}`, `{"a":[NaN]}`, `{"a":true,"b":false,"c":null}`, `{}`, ` { "a" : [ ] } `, `{"a":1}x`,
		`{"a":1,}`, `[1]`, `{"a"}`, `{"a":"b\"c\\d\/e\n"}`, `{"a":1e400}`, `{"a":123456789012345678901234567890}`,
		`{"episode_id": "ep_0001", "judge": "vlm:model-x", "condition": "E2-lastk", "run": 1, "verdict": "success", "score": null, "confidence": 0.9}`,
		`{"episode_id":"e","judge":"j","condition":"c","run":1,"verdict":"success","score":null,"confidence":0.9,"model":"m","called_at":"2026-10-11T09:00:00Z"}`,
		`{"judge":"j","episode_id":"e","run":2,"condition":"c","verdict":null,"score":0.5,"extra":[1]}`,
		`{"episode_id":"e","judge\u0022":"j","run\"":1,"condition":"c"}`, `{"episode_id":"e","judge`, `{"episode_id"`, `{"episode_id":}`,
		`{"episode_id":"e","episode_id":"f"}`, `{"episode_idx":"e","judge":"j"}`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		fields, err := scanObject(nil, b)
		// The verdict decoder's key hints change nothing but speed.
		hinted, herr := scanObjectKeys(nil, b, verdictKeys)
		if fmt.Sprint(herr) != fmt.Sprint(err) || !reflect.DeepEqual(hinted, fields) {
			t.Fatalf("%q: with key hints %v %+v, without %v %+v", b, herr, hinted, err, fields)
		}
		nonFinite := false
		for _, fl := range fields {
			nonFinite = nonFinite || fl.kind == kNonFinite
		}
		want, jerr := decodeJSON(b)
		obj, isObj := want.(map[string]any)
		valid := json.Valid(b) && jerr == nil && isObj
		if nonFinite && err == nil {
			if valid {
				t.Fatalf("%q: scanned a non-finite value that encoding/json accepts", b)
			}
			return
		}
		if err != nil && strings.Contains(err.Error(), "lone surrogate") {
			if off, _ := loneSurrogate(b); off < 0 {
				t.Fatalf("%q: %v, but loneSurrogate finds none", b, err)
			}
			return // refused on purpose: encoding/json reads it as U+FFFD
		}
		if got := err == nil; got != valid {
			t.Fatalf("%q: scanner accepts = %v (%v), encoding/json accepts = %v (%v)", b, got, err, valid, jerr)
		}
		if !valid {
			return
		}
		seen := map[string]bool{}
		for _, fl := range fields {
			if seen[string(fl.key)] {
				return // duplicate keys: encoding/json keeps the last, the decoders reject the line
			}
			seen[string(fl.key)] = true
		}
		if len(seen) != len(obj) {
			t.Fatalf("%q: %d fields, encoding/json has %d", b, len(seen), len(obj))
		}
		for i := range fields {
			fl := &fields[i]
			w, ok := obj[string(fl.key)]
			if !ok {
				t.Fatalf("%q: key %q not in encoding/json's object", b, fl.key)
			}
			var got any
			var err error
			switch fl.kind {
			case kNull:
				got = nil
			case kBool:
				got, err = fl.boolean()
			case kString:
				got, err = fl.str()
			case kNumber:
				got = json.Number(fl.val)
				if f, ferr := fl.float(); ferr == nil {
					if wf, _ := strconv.ParseFloat(string(w.(json.Number)), 64); wf != f {
						t.Fatalf("%q: %s: float %v, encoding/json text parses to %v", b, fl.key, f, wf)
					}
				}
			case kObject, kArray:
				got, err = decodeJSON(fl.val)
			}
			if err != nil && strings.Contains(err.Error(), "lone surrogate") {
				return // refused on purpose: encoding/json reads it as U+FFFD
			}
			if err != nil {
				t.Fatalf("%q: %s: %v", b, fl.key, err)
			}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%q: %s = %#v, encoding/json gives %#v", b, fl.key, got, w)
			}
		}
	})
}

// TestLeadingZeroRejected is the example, end to end through the
// verdict decoder.
func TestLeadingZeroRejected(t *testing.T) {
	var v = newVerdictDecoder()
	for _, line := range []string{`{"episode_id":"e","judge":"j","condition":"E1-final","run":01,"verdict":"success"}`,
		`{"episode_id":"e","judge":"j","condition":"E1-final","run":1.,"verdict":"success"}`} {
		err := v.decode([]byte(line), new(schema.Verdict))
		if err == nil || !strings.Contains(err.Error(), "malformed number") {
			t.Errorf("%s: %v, want a malformed number", line, err)
		}
	}
}

// TestPlain8 checks the word-at-a-time test of skipString against the byte
// by byte one, on every single special byte at every position and on
// random words.
func TestPlain8(t *testing.T) {
	slow := func(b []byte) bool {
		for _, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				return false
			}
		}
		return true
	}
	check := func(b []byte) {
		if got, want := special8(binary.LittleEndian.Uint64(b)) == 0, slow(b); got != want {
			t.Fatalf("special8(%q) == 0 = %v, want %v", b, got, want)
		}
		if m := special8(binary.LittleEndian.Uint64(b)); m != 0 {
			first := 0
			for slow(b[first : first+1]) {
				first++
			}
			if got := bits.TrailingZeros64(m) >> 3; got != first {
				t.Fatalf("special8(%q) points at byte %d, want %d", b, got, first)
			}
		}
	}
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{'a', 0x7f, 0x80, 0xff, 0x20, '"' + 1, '\\' - 1} {
				b := bytes.Repeat([]byte{fill}, 8)
				b[pos] = byte(c)
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], r.Uint64())
		check(b[:])
	}
}

// TestFastFloat checks the decimal fast path against strconv on random
// decimals of up to 15 digits (and the signs of zero), and that longer
// ones and exponents take strconv.
func TestFastFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(s string) {
		got, ok := fastFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if !ok || err != nil || got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("fastFloat(%q) = %v, %v; strconv %v, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"0", "-0", "0.0", "-0.0", "1", "0.1", "0.7", "0.85", "123456789012345", "0.123456789012345", "-99999999.9999999"} {
		check(s)
	}
	for range 300000 {
		n := 1 + r.IntN(15)
		var b []byte
		if r.IntN(4) == 0 {
			b = append(b, '-')
		}
		dot := r.IntN(n + 1)
		for i := range n {
			if i == dot && i > 0 {
				b = append(b, '.')
			}
			b = append(b, byte('0'+r.IntN(10)))
		}
		check(string(b))
	}
	for _, s := range []string{"1e5", "12345678901234567", "0.1234567890123456", "1.5E3", "99999999999999999999"} {
		if _, ok := fastFloat([]byte(s)); ok {
			t.Errorf("fastFloat(%q) took the fast path", s)
		}
	}
}
