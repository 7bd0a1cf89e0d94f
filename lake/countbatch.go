package lake

import (
	"fmt"
	"math"
	"unsafe"
)

// writeTo writes the counted rows of the verdicts file src into fw, a file
// of run_counts (it does not end fw). The tallies go straight into the
// columns of fw's batches, as colLayout.add would put the rows each
// builds (TestCountBatchesMatchRows). A derived table has no key index:
// the rows' key hashes are not computed.
func (c *runCounter) writeTo(fw *fileWriter, src string) error {
	ix := countColumnsOf(fw.table.cols)
	for _, blk := range c.blocks { // a block is a batch
		b := fw.reusedBatch()
		blk.fill(b, ix, src)
		if err := fw.write(b); err != nil {
			return err
		}
	}
	return nil
}

// reusedBatch returns an empty batch of countBatchRows rows for a
// companion: one of the first countBatches made, waiting for the encoder
// to hand one back once they are all in use (a file's counts come all at
// once, at its end: new batches for each would be fresh memory at the
// ingest's peak). The free channel holds more than countBatches, so the
// encoder never drops one of them.
func (fw *fileWriter) reusedBatch() *colBatch {
	if fw.made < countBatches {
		fw.made++
		return fw.table.cols.newBatch(countBatchRows)
	}
	return <-fw.free
}

// countBatches is how many batches a companion uses: one filled while
// the encoder writes the other.
const countBatches = 2

// countBatchRows is how many run-count rows a companion's batch holds
// (and a runCounter's block: tallyBlockLen).
const countBatchRows = 2048

// countColumns are the columns of a run_counts batch.
type countColumns struct {
	episode, seq, runs, parse, success, failure, uncertain, scoredVerdicts, srcFile, srcLine int
	scores, runNumbers                                                                       [scoresPerRow]int
}

// countColumnsOf finds the columns of the run_counts layout cl. It panics
// on a layout without them: a programming error every test catches.
func countColumnsOf(cl *colLayout) countColumns {
	byName := map[string]int{}
	for c, i := range cl.fields {
		byName[cl.rt.fields[i].name] = c
	}
	col := func(name string) int {
		c, ok := byName[name]
		if !ok {
			panic("lake: run_counts has no column " + name)
		}
		return c
	}
	ix := countColumns{
		episode: col("episode_id"), seq: col("seq"), runs: col("n_runs"), parse: col("n_parse"),
		success: col("n_success"), failure: col("n_failure"), uncertain: col("n_uncertain"),
		scoredVerdicts: col("n_scored_verdicts"), srcFile: col("_src_file"), srcLine: col("_src_line"),
	}
	for k := range ix.scores {
		ix.scores[k] = col(fmt.Sprintf("score_%d", k+1))
		ix.runNumbers[k] = col(fmt.Sprintf("run_%d", k+1))
	}
	if want := 10 + 2*scoresPerRow; len(byName) != want {
		panic(fmt.Sprintf("lake: run_counts has %d columns, the counter writes %d", len(byName), want))
	}
	return ix
}

// fill appends the rows of the block's tallies to b.
func (blk *tallyBlock) fill(b *colBatch, ix countColumns, src string) {
	num := func(col int, v int32) { b.cols[col].num = append(b.cols[col].num, uint64(int64(v))) }
	// The block's ids no longer change (a counter's blocks are never
	// reused, runCounter.reset): the rows' strings are its bytes.
	ids := unsafe.String(unsafe.SliceData(blk.ids), len(blk.ids))
	for i := range blk.tallies {
		t := &blk.tallies[i]
		b.n++
		b.keys = append(b.keys, [2]uint64{})
		b.cols[ix.episode].str = append(b.cols[ix.episode].str, ids[t.id:t.id+t.idLen])
		num(ix.seq, t.seq)
		num(ix.runs, t.runs)
		num(ix.parse, t.parse)
		num(ix.success, t.success)
		num(ix.failure, t.failure)
		num(ix.uncertain, t.uncert)
		for k, sc := range ix.scores {
			col, rc := &b.cols[sc], &b.cols[ix.runNumbers[k]]
			if int32(k) >= t.nScores {
				col.addNull()
				rc.addNull()
				continue
			}
			col.present(b.n)
			col.num = append(col.num, math.Float64bits(blk.scores[t.score+int32(k)]))
			rc.present(b.n)
			rc.num = append(rc.num, uint64(blk.runs[t.score+int32(k)]))
		}
		sv := &b.cols[ix.scoredVerdicts] // always set (nil marks rows written before it)
		sv.present(b.n)
		sv.num = append(sv.num, uint64(int64(t.scoredVerdicts)))
		b.cols[ix.srcFile].str = append(b.cols[ix.srcFile].str, src)
		b.cols[ix.srcLine].num = append(b.cols[ix.srcLine].num, 0)
	}
}
