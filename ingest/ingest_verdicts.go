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
	return inBatch(ctx, dst, opts, func(b *batch) error {
		files := b.expandDirs(files, ".jsonl")
		for _, name := range files {
			if fi, err := os.Stat(name); err == nil {
				b.sizeHint += int(fi.Size() / 160) // a typical verdict line
			}
		}
		for _, name := range files {
			if err := b.verdictFile(name); err != nil {
				return err
			}
		}
		return nil
	})
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

// decodedChunk is a run of consecutive input lines, decoded.
type decodedChunk struct {
	rows []schema.Verdict
	errs []*schema.RecordError // in line order, interleaved by line number with rows
	err  error                 // a read error that ends the stream
	last int64                 // last line number read
}

const chunkLines = 2048

// verdictStream decodes one JSONL stream; src names it in messages.
// Reading and decoding run in one goroutine, dedupe and Parquet encoding
// in this one, so the two halves overlap on two cores.
func (b *batch) verdictStream(r io.Reader, src string) error {
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	chunks := make(chan *decodedChunk, 4)
	go decodeVerdicts(ctx, r, src, b.opts.MaxLineBytes, chunks)
	var rows int64
	before := len(b.errs)
	for c := range chunks {
		if c.err != nil {
			b.reject(src, 0, c.err)
			return nil
		}
		if err := b.ctx.Err(); err != nil {
			return err
		}
		if b.opts.Progress != nil {
			b.opts.Progress(c.last)
		}
		ei := 0
		for i := range c.rows {
			v := &c.rows[i]
			for ei < len(c.errs) && c.errs[ei].Line < v.SrcLine {
				b.errs = append(b.errs, c.errs[ei])
				ei++
			}
			rows++
			if err := add(b, &b.verdicts, lake.Verdicts, v, src, v.SrcLine); err != nil {
				return err
			}
		}
		b.errs = append(b.errs, c.errs[ei:]...)
	}
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if rows == 0 && len(b.errs) == before {
		b.reject(src, 0, fmt.Errorf("%w: no records (empty file)", schema.ErrMissing))
	}
	return nil
}

// decodeVerdicts reads and decodes lines into chunks until EOF, an error
// or cancellation; it closes out.
func decodeVerdicts(ctx context.Context, r io.Reader, src string, maxLine int, out chan<- *decodedChunk) {
	defer close(out)
	lr := newLineReader(r, maxLine)
	dec := newVerdictDecoder()
	c := &decodedChunk{rows: make([]schema.Verdict, 0, chunkLines)}
	send := func() bool {
		select {
		case out <- c:
			c = &decodedChunk{rows: make([]schema.Verdict, 0, chunkLines)}
			return true
		case <-ctx.Done():
			return false
		}
	}
	reject := func(n int64, err error) {
		re := &schema.RecordError{File: src, Line: n, Err: err}
		if fe, ok := err.(*schema.FieldError); ok {
			re.Field, re.Err = fe.Field, fe.Err
		}
		c.errs = append(c.errs, re)
	}
	for {
		line, n, err := lr.next()
		if err == io.EOF {
			send()
			return
		}
		c.last = n
		switch {
		case err != nil && n == 0:
			c.err = fmt.Errorf("read %s: %w", src, err)
			send()
			return
		case err != nil:
			reject(n, err)
		case isBlank(line):
		default:
			if err := checkLine(line); err != nil {
				reject(n, err)
				break
			}
			c.rows = append(c.rows, schema.Verdict{})
			v := &c.rows[len(c.rows)-1]
			if err := dec.decode(line, v); err != nil {
				c.rows = c.rows[:len(c.rows)-1]
				reject(n, err)
				break
			}
			v.SrcFile, v.SrcLine = src, n
		}
		if len(c.rows)+len(c.errs) >= chunkLines && !send() {
			return
		}
	}
}
