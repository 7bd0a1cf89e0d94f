package lake

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/schema"
)

// TestCountBatchesMatchRows checks that the run-count batches writeTo
// fills column by column hold what colLayout.add puts there for the rows
// of runCounter.each: episodes with verdicts, with one to eight scores
// (several rows each, with their run numbers), with both, and verdicts
// with a score, across batch boundaries.
func TestCountBatchesMatchRows(t *testing.T) {
	ct, err := LookupTable(RunCounts)
	if err != nil {
		t.Fatal(err)
	}
	cl := ct.cols
	vals := []string{"", schema.VerdictSuccess, schema.VerdictFailure, schema.VerdictUncertain, schema.VerdictParseError}
	rng := rand.New(rand.NewPCG(3, 4))
	c := &runCounter{last: -1}
	for e := 0; e < 5000; e++ {
		for r := 0; r < 1+rng.IntN(9); r++ {
			v := vals[rng.IntN(len(vals))]
			scored := v == "" || rng.IntN(3) == 0 // score-only, or a verdict with a score
			c.add(fmt.Sprintf("ep%05d", e), v, v != "", float64(rng.IntN(1000))/1000, scored, int64(r+1))
		}
	}
	const src = "verdicts/judge=j/condition=c/part-x.parquet"
	ix := countColumnsOf(cl)
	var want []*colBatch
	rows := c.result([]string{"j", "c"}, src)
	for lo := 0; lo < len(rows); lo += countBatchRows {
		part := rows[lo:min(lo+countBatchRows, len(rows))]
		b := cl.newBatch(len(part))
		for i := range part {
			cl.add(b, unsafe.Pointer(&part[i]), [2]uint64{})
		}
		want = append(want, b)
	}
	if len(want) < 2 {
		t.Fatalf("%d batches: the test wants more than one", len(want))
	}
	if len(c.blocks) != len(want) {
		t.Fatalf("%d blocks for %d batches", len(c.blocks), len(want))
	}
	for k, w := range want {
		got := cl.newBatch(w.n)
		c.blocks[k].fill(got, ix, src)
		if d := cmp.Diff(w, got, cmp.AllowUnexported(colBatch{}, colData{})); d != "" {
			t.Fatalf("batch %d (-rows +fill):\n%s", k, d)
		}
	}
}
