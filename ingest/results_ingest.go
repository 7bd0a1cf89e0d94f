package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// resultRecord decodes one generic record as a results line.
func (b *batch) resultRecord(src string, n int64, line []byte) error {
	var rows []schema.Result
	err := DecodeResults(bytes.NewReader(line), src, func(r schema.Result) error {
		rows = append(rows, r)
		return nil
	})
	var res RecordErrors
	if errors.As(err, &res) {
		for _, e := range res {
			e.File, e.Line = src, n
			b.errs = append(b.errs, e)
		}
		return nil
	}
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].SrcFile, rows[i].SrcLine = src, n
		if err := add(b, &b.results, lake.Results, &rows[i], src, n); err != nil {
			return err
		}
	}
	return nil
}

// Results ingests recorded benchmark results (JSONL, see DecodeResults)
// into the results table as one all-or-nothing batch.
func Results(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	b, err := begin(ctx, dst, opts)
	if err != nil {
		return Stats{}, err
	}
	defer b.tx.Rollback()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			b.reject(name, 0, err)
			continue
		}
		b.stats.Inputs++
		err = DecodeResults(f, name, func(r schema.Result) error {
			return add(b, &b.results, lake.Results, &r, r.SrcFile, r.SrcLine)
		})
		f.Close()
		if err := b.collect(err); err != nil {
			return b.stats, err
		}
	}
	return b.finish()
}

// collect moves a decoder's RecordErrors into the batch; other errors are
// returned.
func (b *batch) collect(err error) error {
	var res RecordErrors
	if errors.As(err, &res) {
		b.errs = append(b.errs, res...)
		return nil
	}
	return err
}
