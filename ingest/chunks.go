package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/trustlake/trustlake/schema"
)

// chunkBytes is how much input one chunk reads at a time; its lines are
// cut in place, and its lines and rows stay in cache until the dedupe.
const chunkBytes = 128 << 10

// chunker reads a JSONL stream in blocks and cuts them into chunks of
// whole lines, with the lines as lineReader gives them: numbered from 1,
// without "\n" or "\r\n"; blank ones are left out (but numbered), and one
// longer than maxLine bytes is reported, not kept (its bytes are dropped
// as they are read, so no more than maxLine bytes of it are held).
type chunker struct {
	r       io.Reader
	maxLine int
	line    int64  // lines numbered so far
	carry   []byte // the start of the line under way at the end of the last block
	long    int64  // > 0: bytes so far of a too-long line being dropped
	done    bool   // the input has ended (or failed)
}

// fill reads lines into c until it holds at least one line or error, or
// the input ends. It reports false once nothing is left to send.
func (ch *chunker) fill(c *rawChunk, src string) bool {
	if ch.done {
		return false
	}
	lb := c.lines
	buf := append(lb.buf[:0], ch.carry...)
	ch.carry = ch.carry[:0]
	start := 0 // of the line under way in buf
	for {
		if len(buf) == cap(buf) { // no whole line yet: room for the one under way
			buf = slices.Grow(buf, max(chunkBytes, len(buf)-start))
		}
		n, err := ch.r.Read(buf[len(buf):cap(buf)])
		from := len(buf)
		buf = buf[:len(buf)+n]
		// Cut the whole lines just read (a line may have begun earlier).
		for {
			i := bytes.IndexByte(buf[from:], '\n')
			if i < 0 {
				break
			}
			end := from + i
			ch.line++
			ch.add(c, buf, start, end, 1)
			start, from = end+1, end+1
		}
		// The line under way: drop it once it is too long.
		if rest := int64(len(buf) - start); ch.long > 0 || rest > int64(ch.maxLine) {
			ch.long += rest
			buf = buf[:start]
		}
		switch {
		case err == io.EOF:
			if len(buf) > start || ch.long > 0 {
				ch.line++
				ch.add(c, buf, start, len(buf), 0)
			}
			ch.done = true
		case err != nil:
			c.err = fmt.Errorf("read %s: %w", src, err)
			ch.done = true
		case len(lb.ends)+len(c.errs) == 0 || len(buf) < cap(buf):
			continue // nothing to send yet, or room to read more
		}
		ch.carry = append(ch.carry, buf[start:]...)
		lb.buf = buf
		c.last = ch.line
		return true
	}
}

// add records line ch.line, buf[start:end] followed by nl bytes of newline.
func (ch *chunker) add(c *rawChunk, buf []byte, start, end, nl int) {
	if n := ch.long + int64(end-start+nl); ch.long > 0 || end-start > ch.maxLine {
		ch.long = 0
		c.errs = append(c.errs, &schema.RecordError{Line: ch.line, Err: schema.Reason(schema.ErrTooLong, "%d bytes or more, limit %d", n, ch.maxLine)})
		return
	}
	if end > start && buf[end-1] == '\r' {
		end--
	}
	if isBlank(buf[start:end]) {
		return
	}
	lb := c.lines
	lb.starts = append(lb.starts, start)
	lb.ends = append(lb.ends, end)
	lb.nums = append(lb.nums, ch.line)
}

// readChunks splits the input into chunks of lines until EOF, an error or
// cancellation; every chunk goes to work (for a decoder) and to order (for
// the consumer), in input order. It closes both.
func readChunks(ctx context.Context, r io.Reader, src string, maxLine int, work, order chan<- *rawChunk) {
	defer close(order)
	defer close(work)
	ch := &chunker{r: r, maxLine: maxLine}
	for ctx.Err() == nil {
		lb := lineBufs.Get().(*lineBuf)
		lb.reset()
		c := &rawChunk{lines: lb, res: make(chan *decodedChunk, 1)}
		if !ch.fill(c, src) {
			lineBufs.Put(lb)
			return
		}
		for _, e := range c.errs {
			e.File = src
		}
		select {
		case order <- c:
		case <-ctx.Done():
			return
		}
		select {
		case work <- c:
		case <-ctx.Done():
			return
		}
	}
}
