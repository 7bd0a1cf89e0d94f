package ingest

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// nested is a results line whose "extra" value nests depth objects, each
// under a key of keyLen bytes.
func nested(depth, keyLen int) []byte {
	key := `"` + strings.Repeat("k", keyLen) + `":`
	return []byte(`{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":1,"extra":` +
		strings.Repeat("{"+key, depth) + "1" + strings.Repeat("}", depth+1))
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDeepNestingBounded: the repeated-key check cost memory quadratic in
// depth (a path string per level: a 945 KB results line took 4.1 GB).
// Now a value nested deeper than maxNesting is refused, and the check of
// one just under the cap allocates in proportion to the line.
func TestDeepNestingBounded(t *testing.T) {
	deep := nested(2000, 100) // 200 KB; 200 MB of paths before
	var errs []fieldErr
	n := allocated(func() { _, errs = decodeResultLine(deep) })
	if len(errs) != 1 || !errors.Is(errs[0].err, schema.ErrValue) || !strings.Contains(errs[0].err.Error(), "nested deeper than 128 levels") {
		t.Fatalf("errors %v, want one: nested deeper than 128 levels", errs)
	}
	if n > 16<<20 {
		t.Errorf("refusing a 200 KB line allocated %d MB", n>>20)
	}
	under := nested(maxNesting-2, 8000) // 1 MB; 64 MB of paths before
	n = allocated(func() { _, errs = decodeResultLine(under) })
	if len(errs) != 0 {
		t.Fatalf("errors %v, want none just under the cap", errs)
	}
	if n > 24<<20 {
		t.Errorf("a 1 MB line nested %d deep allocated %d MB, want it linear in the line", maxNesting-2, n>>20)
	}
	for _, line := range [][]byte{deep, []byte(`{"episode_id":"e","judge":"j","condition":"c","run":1,"verdict":"success","x":` +
		strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`)} {
		var v schema.Verdict
		if err := newVerdictDecoder().decode(line, &v); err == nil || !strings.Contains(err.Error(), "nested deeper than 128 levels") {
			t.Errorf("verdict decoder: %v, want nested deeper than 128 levels", err)
		}
	}
}

// TestCaseVariantKeyRefused: a key that differs from another of its object
// only by case is refused like a repeated key (encoding/json matches
// struct fields case-insensitively, so the last would win).
func TestCaseVariantKeyRefused(t *testing.T) {
	for _, line := range []string{
		`{"episode_id":"e","judge":"j","condition":"c","run":1,"verdict":"failure","Verdict":"success"}`,
		`{"episode_id":"e","judge":"j","condition":"c","run":1,"VERDICT":"success","verdict":"failure"}`,
	} {
		var v schema.Verdict
		err := newVerdictDecoder().decode([]byte(line), &v)
		if !errors.Is(err, schema.ErrDuplicate) {
			t.Errorf("%s: %v, want a duplicate key", line, err)
		}
	}
	_, errs := decodeResultLine([]byte(`{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":0,"Score":1}`))
	if len(errs) != 1 || errs[0].field != "Score" || !errors.Is(errs[0].err, schema.ErrDuplicate) {
		t.Errorf("results: %v, want Score: duplicate key", errs)
	}
}

// TestLoneSurrogate: a \u escape of half a UTF-16 pair is found, a pair
// and an escaped backslash before "ud800" are not.
func TestLoneSurrogate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{`{"a":"\ud83d\ude00"}`, -1},
		{`{"a":"\\ud800"}`, -1},
		{`{"a":"x\ud800"}`, 7},
		{`{"a":"\udc00\ud800"}`, 6},
		{`{"a":"\ud800\u0041"}`, 6},
		{`{"a":"\ud800\\udc00"}`, 6},
		{`{"a":"\u0041\ud800`, 12},
	} {
		if got, _ := loneSurrogate([]byte(c.in)); got != c.want {
			t.Errorf("%s: %d, want %d", c.in, got, c.want)
		}
	}
}
