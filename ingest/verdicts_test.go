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
		// The decoder's shortcut (valid) lets no row through that Validate rejects.
		if err := got.Validate(); gerr == nil && err != nil {
			t.Fatalf("line %d %s: decoded without error, Validate: %v", i, line, err)
		}
	}
}
