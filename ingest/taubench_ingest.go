package ingest

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Skipped is returned by TauBench with TauBenchOptions.SkipBad when input
// records were rejected: they were skipped and every other record was
// committed. Errors holds every rejection in input order.
type Skipped struct {
	Errors RecordErrors
}

func (s *Skipped) Error() string {
	return fmt.Sprintf("%d input record(s) rejected and skipped; the other records were committed", len(s.Errors))
}

// Unwrap exposes the record errors to errors.As.
func (s *Skipped) Unwrap() error { return s.Errors }

// tauItem is one decoded τ-bench record on its way to the writers.
type tauItem struct {
	res  schema.Result
	acts []schema.Action
}

// TauBench ingests τ-bench trajectory files (see DecodeTauBench) into the
// results table (one row per record) and the actions table (one row per
// message) as one batch. Decoding runs in its own goroutine, dedupe and
// Parquet encoding in the caller's.
//
// Every bad record is reported as "file:line: field: reason" and the other
// records of the file are still read. By default the batch is all or
// nothing like every ingest: with any rejected record nothing is committed
// (*Rejected) and the user fixes or removes the bad records. With
// tbOpts.SkipBad the good records are committed and the bad ones are
// returned in a *Skipped error. A key conflict with the lake (the same
// result_id with different content, without opts.Replace) always rejects
// the batch.
//
// Besides the checks of DecodeTauBench (within one file), a task must be
// the same (instruction, user, outputs, gold actions) in every file of the
// batch that records it for the same benchmark.
func TauBench(ctx context.Context, dst *lake.Lake, files []string, tbOpts TauBenchOptions, opts Options) (Stats, error) {
	var bad RecordErrors
	st, err := inBatch(ctx, dst, opts, func(b *batch) error {
		tasks := map[[2]string]taskOrigin{}
		var rows int64
		for _, name := range files {
			b.stats.Inputs++
			errs, err := b.tauFile(ctx, name, tbOpts, tasks, &rows)
			if err != nil {
				return err
			}
			bad = append(bad, errs...)
		}
		if !tbOpts.SkipBad {
			b.errs, bad = append(bad, b.errs...), nil
		}
		return nil
	})
	if err == nil && len(bad) > 0 {
		err = &Skipped{Errors: bad}
	}
	return st, err
}

// taskOrigin is where a task was first seen (in a file, or a batch), and its identity.
type taskOrigin struct {
	fp   [32]byte
	file string
	line int64
}

// tauFile decodes one file in a goroutine and adds its rows; it returns
// the file's rejected records.
func (b *batch) tauFile(ctx context.Context, name string, tbOpts TauBenchOptions, tasks map[[2]string]taskOrigin, rows *int64) (RecordErrors, error) {
	f, err := openRegular(name, true)
	if err != nil {
		return RecordErrors{{File: name, Err: err}}, nil
	}
	defer f.Close()
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan []tauItem, 4)
	done := make(chan error, 1)
	go func() {
		defer close(items)
		var chunk []tauItem
		err := DecodeTauBench(bufio.NewReaderSize(f, 1<<20), name, tbOpts, func(r schema.Result, a []schema.Action) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			chunk = append(chunk, tauItem{r, a})
			if len(chunk) < 64 {
				return nil
			}
			select {
			case items <- chunk:
				chunk = nil
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		if len(chunk) > 0 && (err == nil || errors.As(err, new(RecordErrors))) {
			select {
			case items <- chunk:
			case <-ctx.Done():
			}
		}
		done <- err
	}()
	var bad RecordErrors
	emitted := 0
	for chunk := range items {
		if err := outer.Err(); err != nil {
			return nil, err
		}
		for i := range chunk {
			it := &chunk[i]
			emitted++
			if e := checkTask(tasks, &it.res); e != nil {
				bad = append(bad, e)
				continue
			}
			if err := add(b, lake.Results, &it.res); err != nil {
				return nil, err
			}
			if err := addAll(b, lake.Actions, it.acts); err != nil {
				return nil, err
			}
			*rows++
			if b.opts.Progress != nil {
				b.opts.Progress(*rows)
			}
		}
	}
	err = <-done
	if err := outer.Err(); err != nil {
		return nil, err
	}
	var res RecordErrors
	switch {
	case errors.As(err, &res):
		bad = append(bad, res...)
	case err != nil:
		return nil, err
	case emitted == 0:
		bad = append(bad, &schema.RecordError{File: name, Err: schema.Reason(schema.ErrMissing, "no records (empty array)")})
	}
	sortByLine(bad)
	return bad, nil
}

// checkTask rejects a record whose task differs from the task recorded
// under the same benchmark and task id earlier in the batch (possibly in
// another file), and remembers the task otherwise.
func checkTask(tasks map[[2]string]taskOrigin, r *schema.Result) *schema.RecordError {
	var g schema.TauBenchGrader
	if json.Unmarshal([]byte(r.Grader), &g) != nil {
		return nil // the decoder wrote it; cannot happen
	}
	t := tauTask{UserID: g.UserID, Actions: g.Actions, Outputs: g.Outputs}
	if r.Instruction != nil {
		t.Instruction = *r.Instruction
	}
	fp := taskFingerprint(&t)
	k := [2]string{r.Benchmark, r.TaskID}
	prev, ok := tasks[k]
	if !ok {
		tasks[k] = taskOrigin{fp, r.SrcFile, r.SrcLine}
		return nil
	}
	if prev.fp == fp {
		return nil
	}
	return &schema.RecordError{File: r.SrcFile, Line: r.SrcLine, Field: "info.task",
		Err: schema.Reason(schema.ErrValue, "task %s of %s differs from the task recorded for it at %s:%d (instruction, user, outputs or gold actions)",
			r.TaskID, r.Benchmark, prev.file, prev.line)}
}

// sortByLine orders one file's record errors by line, keeping the order of
// errors on the same line.
func sortByLine(errs RecordErrors) {
	slices.SortStableFunc(errs, func(a, b *schema.RecordError) int { return cmp.Compare(a.Line, b.Line) })
}
