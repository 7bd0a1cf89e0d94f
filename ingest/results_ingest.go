package ingest

import (
	"context"
	"errors"
	"io"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// resultRecord decodes one generic record as a results line. The records
// of one query are checked against each other like the lines of one file
// (duplicate result ids, trials that disagree on task identity); "line"
// in messages is the record number.
func (b *batch) resultRecord(src string, n int64, line []byte) error {
	if b.resultCheck == nil {
		b.resultCheck = newResultChecker()
	}
	res, ferrs := b.resultCheck.decode(line, n)
	for _, e := range ferrs {
		b.errs = append(b.errs, &schema.RecordError{File: src, Line: n, Field: e.field, Err: e.err})
	}
	if len(ferrs) > 0 {
		return nil
	}
	res.SrcFile, res.SrcLine = src, n
	return add(b, lake.Results, &res)
}

// Results ingests recorded benchmark results (JSONL, see DecodeResults)
// into the results table as one all-or-nothing batch.
func Results(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	return inBatch(ctx, dst, opts, func(b *batch) error {
		return b.eachFile(ctx, files, func(ctx context.Context, f io.Reader, name string) error {
			err := DecodeResults(f, name, func(r schema.Result) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				return add(b, lake.Results, &r)
			})
			if res := RecordErrors(nil); errors.As(err, &res) {
				b.errs = append(b.errs, res...) // the bad lines; the others were added
				return nil
			}
			return err
		})
	})
}
