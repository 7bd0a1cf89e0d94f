// Package runcounts is the run_counts companion of the lake's verdicts:
// beside every verdicts data file, a file of its runs counted per (judge,
// condition, episode) (schema.RunCount), written by the file's writer and
// committed with it. Package lake decides when a companion is written,
// superseded, added to an old file and checked (lake.Companion); this
// package counts the runs, writes and checks the rows, and tells readers
// when the rows are one per episode (PerEpisode). It imports lake, never
// the other way round.
//
// So the counts of a snapshot are exact when every verdicts file has its
// companion (lake.Snapshot.RunCountsComplete); metrics read the counts
// instead of the runs, and fall back to the runs in a lake written before
// run_counts existed (or `lake compact` adds the missing companions).
package runcounts

import (
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// With returns opts with the run_counts companion set: every opener of a
// lake that writes verdicts passes its options through it (a lake opened
// without it refuses to write verdicts, lake.ErrNoCompanion).
func With(opts lake.Options) lake.Options {
	for _, c := range opts.Companions {
		if c.Table() == lake.RunCounts {
			return opts
		}
	}
	opts.Companions = append(opts.Companions[:len(opts.Companions):len(opts.Companions)], companion{})
	return opts
}

// companion implements lake.Companion for run_counts.
type companion struct{}

func (companion) Table() string { return lake.RunCounts }

// Start counts the runs of a verdicts file being written.
func (companion) Start(d *lake.DataFile) (lake.FileCompanion, error) {
	out, err := lake.CreateCompanion[schema.RunCount](d)
	if err != nil {
		return nil, err
	}
	fc := &fileCounts{d: d, c: newRunCounter(), out: out}
	if every := d.CountsInMemory(); every > 0 {
		s, err := newCountSpill(d.SpillDir(), every)
		if err != nil {
			return nil, err
		}
		d.OnRollback(s.close)
		fc.c.spill = s
	}
	return fc, nil
}

// Rebuild counts a committed verdicts file that has no run_counts.
func (companion) Rebuild(d *lake.DataFile) error {
	c, err := recount(d)
	if err != nil {
		return err
	}
	out, err := lake.CreateCompanion[schema.RunCount](d)
	if err != nil {
		return err
	}
	if err := c.writeTo(out, d.Partition(), d.Path()); err != nil {
		return err
	}
	return out.Close()
}

// Feed returns an empty counter of a verdicts file's runs.
func (companion) Feed() lake.RowFeed { return newRunCounter() }

// Check compares a run_counts file with the runs counted from its
// verdicts file (by fed, a counter from Feed, when not nil).
func (companion) Check(root string, data, counts lake.FileEntry, fed lake.RowFeed) (lake.Problem, bool) {
	c, _ := fed.(*runCounter)
	return checkRunCounts(root, data, counts, c)
}

// fileCounts is the run_counts companion of one verdicts file being
// written.
type fileCounts struct {
	d   *lake.DataFile
	c   *runCounter
	out *lake.CompanionFile[schema.RunCount]
}

// Add counts a batch of verdict rows.
func (fc *fileCounts) Add(rows any) { fc.c.Add(rows) }

// Finish writes the counts into the companion file. With a spill whose
// episodes did not all come together it first finishes the data file and
// counts it again.
func (fc *fileCounts) Finish() error {
	defer fc.out.End()
	c, src := fc.c, fc.d.Path()
	if c.spill == nil {
		return c.writeTo(fc.out, fc.d.Partition(), src)
	}
	defer c.spill.close()
	again, err := c.spill.regrouped()
	if err != nil {
		return err
	}
	if !again {
		return c.spill.replay(c, func(part *runCounter) error { return part.writeTo(fc.out, fc.d.Partition(), src) })
	}
	all, err := recount(fc.d)
	if err != nil {
		return err
	}
	return all.writeTo(fc.out, fc.d.Partition(), src)
}

// recount counts the runs of data file d as written.
func recount(d *lake.DataFile) (*runCounter, error) {
	name, err := d.ReadBack()
	if err != nil {
		return nil, err
	}
	return countPath(name, d.Path())
}

// Close waits for the companion file and records it.
func (fc *fileCounts) Close() error {
	fc.c = nil
	return fc.out.Close()
}

// writeTo writes the counted rows of the verdicts file src, of the
// partition values, into out (it does not end out), one block of tallies
// per batch.
func (c *runCounter) writeTo(out *lake.CompanionFile[schema.RunCount], values []string, src string) error {
	for _, blk := range c.blocks {
		err := out.Write(func(rows []schema.RunCount) []schema.RunCount {
			return blk.appendRows(rows, values, src)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
