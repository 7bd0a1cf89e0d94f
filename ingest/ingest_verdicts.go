package ingest

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Verdicts ingests verdict JSONL files (one judge call per line) into the
// verdicts table as one all-or-nothing batch. Rejected lines are returned
// in a *Rejected error and nothing is committed.
func Verdicts(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	return inBatch(ctx, dst, opts, func(b *batch) error {
		files := b.expandDirs(files, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".jsonl") },
			schema.Reason(schema.ErrMissing, "a folder with no *.jsonl files"))
		for _, name := range files {
			if fi, err := os.Stat(name); err == nil {
				b.sizeHint += int(fi.Size() / 160) // a typical verdict line
			}
		}
		return b.eachFile(ctx, files, b.verdictStream)
	})
}

// rawChunk is a run of consecutive input lines, copied out of the reader,
// with the per-line errors found while reading; res receives it decoded.
type rawChunk struct {
	lines *lineBuf // the lines back to back, their end offsets and numbers
	errs  []*schema.RecordError
	err   error // a read error that ends the stream
	last  int64 // last line number read
	res   chan *decodedChunk
}

// decodedChunk is a rawChunk, decoded.
type decodedChunk struct {
	rows []schema.Verdict
	buf  *rowBuf               // rows' backing store, back to rowBufs once added
	errs []*schema.RecordError // sorted by line
	err  error
	last int64
}

// chunkLines is about how many verdict lines a chunk holds (chunkBytes of
// ~160-byte lines).
const chunkLines = 1024

// Buffers of chunks are recycled: a million-line file would otherwise
// allocate (and page-fault) hundreds of megabytes for nothing.
var (
	lineBufs = sync.Pool{New: func() any { return &lineBuf{buf: make([]byte, 0, chunkBytes)} }}
	rowBufs  = sync.Pool{New: func() any {
		return &rowBuf{rows: make([]schema.Verdict, 0, chunkLines),
			floats: make([]float64, 0, 2*chunkLines), times: make([]time.Time, 0, chunkLines)}
	}}
)

// rowBuf is the memory of one chunk's decoded rows: the rows and the
// slabs their optional values point into (verdictDecoder.floats, times), reused
// together once the writer has copied the rows.
type rowBuf struct {
	rows   []schema.Verdict
	floats []float64
	times  []time.Time
}

// lineBuf holds the raw lines of one chunk: buf[starts[i]:ends[i]] is
// line nums[i].
type lineBuf struct {
	buf    []byte
	starts []int
	ends   []int
	nums   []int64
}

// reset empties l for the next chunk, keeping its memory.
func (l *lineBuf) reset() {
	l.buf, l.starts, l.ends, l.nums = l.buf[:0], l.starts[:0], l.ends[:0], l.nums[:0]
}

// decodeWorkers decode chunks in parallel; the consumer takes them in order.
const decodeWorkers = 2

// verdictStream decodes one JSONL stream; src names it in messages.
// One goroutine reads lines, decodeWorkers goroutines decode chunks of
// them, and this one takes the chunks in input order for dedupe; Parquet
// encoding runs in the writers' goroutines.
func (b *batch) verdictStream(ctx context.Context, r io.Reader, src string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *rawChunk, decodeWorkers*2)
	order := make(chan *rawChunk, decodeWorkers*4)
	go readChunks(ctx, r, src, b.opts.MaxLineBytes, work, order)
	for i := 0; i < decodeWorkers; i++ {
		go decodeChunks(src, work)
	}
	var wr *lake.Writer[schema.Verdict] // opened at the first row
	var rows int64
	before := len(b.errs)
	for rc := range order {
		var c *decodedChunk
		select {
		case c = <-rc.res:
		case <-ctx.Done(): // the reader may stop between order and work
			return ctx.Err()
		}
		if c.err != nil {
			b.reject(src, 0, c.err)
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if b.opts.Progress != nil {
			b.opts.Progress(c.last)
		}
		if wr == nil && len(c.rows) > 0 {
			var err error
			if wr, err = writer[schema.Verdict](b, lake.Verdicts); err != nil {
				return err
			}
		}
		if wr != nil {
			wr.Probe(c.rows) // the chunk's filter reads at once
		}
		ei := 0
		for i := range c.rows {
			v := &c.rows[i]
			for ei < len(c.errs) && c.errs[ei].Line < v.SrcLine {
				b.errs = append(b.errs, c.errs[ei])
				ei++
			}
			rows++
			if err := addTo(b, wr, lake.Verdicts, v); err != nil {
				return err
			}
		}
		b.errs = append(b.errs, c.errs[ei:]...)
		clear(c.rows) // the writer copied them; keep no strings alive
		c.buf.rows = c.rows[:0]
		rowBufs.Put(c.buf)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if rows == 0 && len(b.errs) == before {
		b.reject(src, 0, errNoRecords)
	}
	return nil
}

// decodeChunks decodes the chunks of work until it is closed.
func decodeChunks(src string, work <-chan *rawChunk) {
	dec := newVerdictDecoder()
	for rc := range work {
		rb := rowBufs.Get().(*rowBuf)
		dec.floats, dec.times = rb.floats[:0], rb.times[:0]
		c := &decodedChunk{rows: rb.rows[:0], buf: rb, errs: rc.errs, err: rc.err, last: rc.last}
		reject := func(n int64, err error) {
			c.errs = append(c.errs, recordErrors(src, n, err)...)
		}
		lb := rc.lines
		for i, end := range lb.ends {
			line, n := lb.buf[lb.starts[i]:end], lb.nums[i]
			if err := checkJSONText(line); err != nil {
				reject(n, err)
				continue
			}
			c.rows = append(c.rows, schema.Verdict{})
			v := &c.rows[len(c.rows)-1]
			if err := dec.decode(line, v); err != nil {
				c.rows = c.rows[:len(c.rows)-1]
				reject(n, err)
				continue
			}
			v.SrcFile, v.SrcLine = src, n
		}
		lineBufs.Put(lb)                 // decoded strings are copies: the bytes can go
		dec.floats, dec.times = nil, nil // the chunk's slabs go with its rows
		rc.lines = nil
		if len(rc.errs) > 0 {
			sortByLine(c.errs)
		}
		rc.res <- c
	}
}
