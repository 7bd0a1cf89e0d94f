package lake

import "github.com/trustlake/trustlake/schema"

// writeTo writes the counted rows of the verdicts file src into fw, a file
// of run_counts (it does not end fw), one block of tallies per batch. A
// derived table has no key index: the rows' key hashes are not computed.
func (c *runCounter) writeTo(fw *fileWriter[schema.RunCount], src string) error {
	for _, blk := range c.blocks {
		b := fw.reusedBatch()
		b.rows = blk.appendRows(b.rows, fw.values, src)
		if err := fw.write(b); err != nil {
			return err
		}
	}
	return nil
}

// reusedBatch returns an empty batch for a companion: one of the first
// countBatches made, waiting for the encoder to hand one back once they
// are all in use (a file's counts come all at once, at its end: new
// batches for each would be fresh memory at the ingest's peak). The free
// channel holds more than countBatches, so the encoder never drops one.
func (fw *fileWriter[T]) reusedBatch() *rowBatch[T] {
	if fw.made < countBatches {
		fw.made++
		return newRowBatch[T](tallyBlockLen)
	}
	return <-fw.free
}

// countBatches is how many batches a companion uses: one filled while
// the encoder writes the other.
const countBatches = 2
