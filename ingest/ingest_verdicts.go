package ingest

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Verdicts ingests verdict JSONL files (one judge call per line) into the
// verdicts table as one all-or-nothing batch. Rejected lines are returned
// in a *Rejected error and nothing is committed.
func Verdicts(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	b, err := begin(ctx, dst, opts)
	if err != nil {
		return Stats{}, err
	}
	defer b.tx.Rollback()
	for _, name := range files {
		if err := b.verdictFile(name); err != nil {
			return b.stats, err
		}
	}
	return b.finish()
}

func (b *batch) verdictFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		b.reject(name, 0, err)
		return nil
	}
	defer f.Close()
	b.stats.Inputs++
	return b.verdictStream(f, name)
}

// verdictStream decodes one JSONL stream; src names it in messages.
func (b *batch) verdictStream(r io.Reader, src string) error {
	lr := newLineReader(r, b.opts.MaxLineBytes)
	var fields []field
	var rows int64
	before := len(b.errs)
	for {
		line, n, err := lr.next()
		if err == io.EOF {
			break
		}
		if n%65536 == 0 {
			if cerr := b.ctx.Err(); cerr != nil {
				return cerr
			}
			if b.opts.Progress != nil {
				b.opts.Progress(n)
			}
		}
		if err != nil {
			b.reject(src, n, err)
			continue
		}
		if isBlank(line) {
			continue
		}
		if err := checkLine(line); err != nil {
			b.reject(src, n, err)
			continue
		}
		var v schema.Verdict
		fields, err = decodeVerdict(line, fields, &v)
		if err != nil {
			b.reject(src, n, err)
			continue
		}
		v.SrcFile, v.SrcLine = src, n
		rows++
		if err := add(b, &b.verdicts, lake.Verdicts, &v, src, n); err != nil {
			return err
		}
	}
	if rows == 0 && len(b.errs) == before {
		b.reject(src, 0, fmt.Errorf("%w: no records (empty file)", schema.ErrMissing))
	}
	return nil
}
