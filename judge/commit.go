package judge

import (
	"context"
	"fmt"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// commitLoop collects verdicts and commits them in atomic lake batches:
// every BatchRows verdicts or BatchInterval, and at the end. A failed
// commit stops the run.
func (r *runner) commitLoop(ctx context.Context, stop context.CancelCauseFunc) error {
	o := r.o
	batch := make([]schema.Verdict, 0, o.BatchRows)
	tick := time.NewTicker(o.BatchInterval)
	defer tick.Stop()
	var failed error
	flush := func() {
		if len(batch) == 0 || failed != nil {
			return
		}
		if err := commitVerdicts(context.WithoutCancel(ctx), r.l, batch); err != nil {
			failed = fmt.Errorf("commit %d verdicts: %w (verdicts committed before are kept: run the same command again to resume)", len(batch), err)
			stop(failed)
			return
		}
		r.sum.Commits++
		r.sum.Verdicts += int64(len(batch))
		batch = batch[:0]
	}
	report := func() {
		if o.Progress != nil {
			o.Progress(Progress{Done: r.sum.Verdicts + int64(len(batch)), Total: r.sum.Planned,
				Failed: r.failed.Load(), Retries: r.retries.Load(), Elapsed: time.Since(r.start)})
		}
	}
	for {
		select {
		case row, ok := <-r.results:
			if !ok {
				flush()
				report()
				return failed
			}
			if row.EpisodeID != "" {
				if row.Verdict != nil && *row.Verdict == schema.VerdictParseError {
					r.sum.ParseErrors++
				}
				if row.InputTokens != nil {
					r.sum.InputTokens += *row.InputTokens
				}
				if row.OutputTokens != nil {
					r.sum.OutputTokens += *row.OutputTokens
				}
				batch = append(batch, row)
				if len(batch) >= o.BatchRows {
					flush()
				}
			}
			report()
		case <-tick.C:
			flush()
		}
	}
}

// commitVerdicts writes one batch in one lake transaction.
func commitVerdicts(ctx context.Context, l *lake.Lake, rows []schema.Verdict) error {
	tx, err := l.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{SizeHint: len(rows)})
	if err != nil {
		return err
	}
	for i := range rows {
		if err := rows[i].Validate(); err != nil {
			return fmt.Errorf("verdict %s run %d: %w", rows[i].EpisodeID, rows[i].Run, err)
		}
		if _, err := w.Add(&rows[i]); err != nil {
			return fmt.Errorf("verdict %s@%s run %d: %w (is another runner writing the same judge?)", rows[i].EpisodeID, rows[i].Condition, rows[i].Run, err)
		}
	}
	if _, err := w.Close(); err != nil {
		return err
	}
	if dups := w.Duplicates(); len(dups) > 0 {
		return fmt.Errorf("duplicate verdict keys in one batch: %v", dups[0])
	}
	return tx.Commit()
}
