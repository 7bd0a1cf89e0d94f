package ingest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// TestVerdictDecoderCaches decodes a stream of verdict lines with one
// decoder (whose interned values, last timestamp, minute cache and slabs
// carry over from line to line) and each line again with a fresh decoder:
// values and errors must be the same.
func TestVerdictDecoderCaches(t *testing.T) {
	pick := func(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }
	r := rand.New(rand.NewPCG(3, 4))
	shared := newVerdictDecoder()
	for i := range 20000 {
		at := pick(r, `"2026-10-11T09:00:00Z"`, `"2026-10-11T09:00:59Z"`, `"2026-10-11T09:01:07Z"`, `"2026-10-11T10:00:07Z"`,
			`"2026-10-12T09:00:07Z"`, `"2026-10-11T09:00:60Z"`, `"2026-10-11T09:00:5aZ"`, `"2026-10-11T09:00:07+02:00"`,
			`"2026-10-11T09:00:07.5Z"`, `"2026-02-30T09:00:07Z"`, `"2026-10-11T09:00:07"`, `null`, `"2026-10-11T09:00:\u00307Z"`,
			fmt.Sprintf(`"2026-10-11T09:%02d:%02dZ"`, r.IntN(3), r.IntN(62)))
		long := `"` + strings.Repeat("j", 513) + `"`
		line := fmt.Sprintf(`{"episode_id":%s,"judge":%s,"condition":%s,"run":%d,"verdict":%s,"score":%s,"confidence":%s,"model":%s,"called_at":%s}`,
			pick(r, fmt.Sprintf(`"ep-%d"`, r.IntN(50)), `"ep-1"`, `""`, `"ep\u0001"`, `"ép"`, long),
			pick(r, `"j1"`, `"j2"`, `"j\u0031"`, `7`, `""`, `"j\u0002"`, long, `"`+strings.Repeat("é", 40)+`"`),
			pick(r, `"E1-final"`, `"E2-lastk"`, `""`, `"c\u007f"`), r.IntN(4),
			pick(r, `"success"`, `"failure"`, `"parse_error"`, `"maybe"`, `null`, `"succ\u0065ss"`), pick(r, `null`, `0.5`, `1e400`),
			pick(r, `0.9`, `null`, `2`, `"x"`, `-0.1`, `1`, `0`), pick(r, `"m@1"`, `"m@2"`, `null`, `3`), at)
		var got, want schema.Verdict
		gerr := shared.decode([]byte(line), &got)
		werr := newVerdictDecoder().decode([]byte(line), &want)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("line %d %s: error %v, fresh decoder %v", i, line, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("line %d %s: %+v, fresh decoder %+v", i, line, got, want)
		}
	}
}

// TestRawWord: a value's rawWord does not depend on the bytes after it,
// and two values compare as their bytes do.
func TestRawWord(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		a := make([]byte, r.IntN(24))
		for i := range a {
			a[i] = "ab"[r.IntN(2)]
		}
		line := append(append([]byte{}, a...), "xyzxyzxyzxyzxyzxyz"[:r.IntN(18)]...)
		wa, wl := wordOf(a[:len(a):len(a)]), wordOf(line[:len(a)])
		if wa != wl {
			t.Fatalf("%q: %+v alone, %+v in a line", a, wa, wl)
		}
		b := a[:r.IntN(len(a)+1)]
		switch r.IntN(3) {
		case 0:
			b = append([]byte{}, a...)
		case 1: // the same length, one byte changed
			b = append([]byte{}, a...)
			if len(b) > 0 {
				b[r.IntN(len(b))] = 'c'
			}
		}
		wb := wordOf(b)
		if got, want := wa.same(&wb, b, string(a)), string(a) == string(b); got != want {
			t.Fatalf("%q, %q: same %v", a, b, got)
		}
	}
}
