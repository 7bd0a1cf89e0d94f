package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/trustlake/trustlake/schema"
)

// lineReader is the reference chunker is tested against: it yields the lines of a JSONL input without ever holding more
// than maxLine bytes: a longer line is skipped (consumed, not stored) and
// reported as too long.
type lineReader struct {
	r       *bufio.Reader
	maxLine int
	line    int64
}

func newLineReader(r io.Reader, maxLine int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, maxLine+1), maxLine: maxLine}
}

// next returns the next line (without the newline), its 1-based number,
// and a per-line error (too long). It returns io.EOF at the end, and a
// read error with line 0: the stream cannot go on. The slice is valid until
// the next call.
func (lr *lineReader) next() ([]byte, int64, error) {
	b, err := lr.r.ReadSlice('\n')
	if len(b) == 0 && err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, 0, err
	}
	lr.line++
	if errors.Is(err, bufio.ErrBufferFull) {
		n := int64(len(b))
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = lr.r.ReadSlice('\n')
			n += int64(len(b))
		}
		if err != nil && err != io.EOF {
			return nil, 0, err
		}
		return nil, lr.line, schema.Reason(schema.ErrTooLong, "%d bytes or more, limit %d", n, lr.maxLine)
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	return b, lr.line, nil
}

// linesOf is what lineReader gives for in, as the verdict reader keeps it:
// the non-blank lines and the per-line errors, each with its number.
func linesOf(in []byte, maxLine int) (lines, errs []string) {
	lr := newLineReader(bytes.NewReader(in), maxLine)
	for {
		b, n, err := lr.next()
		switch {
		case err == io.EOF:
			return lines, errs
		case err != nil:
			errs = append(errs, fmt.Sprintf("%d: %v", n, err))
		case !isBlank(b):
			lines = append(lines, fmt.Sprintf("%d: %s", n, b))
		}
	}
}

// chunkedLinesOf is the same through chunker, with chunks of about block
// bytes, reading through r.
func chunkedLinesOf(r io.Reader, maxLine, block int) (lines, errs []string, chunks int) {
	ch := &chunker{r: r, maxLine: maxLine}
	for {
		c := &rawChunk{lines: &lineBuf{buf: make([]byte, 0, block)}}
		if !ch.fill(c, "f") {
			return lines, errs, chunks
		}
		chunks++
		lb := c.lines
		// Errors and lines of a chunk are in line order; merge them as the
		// decoders do (by line) to compare with lineReader's order.
		for i, end := range lb.ends {
			lines = append(lines, fmt.Sprintf("%d: %s", lb.nums[i], lb.buf[lb.starts[i]:end]))
		}
		for _, e := range c.errs {
			errs = append(errs, fmt.Sprintf("%d: %v", e.Line, e.Err))
		}
		if c.err != nil {
			errs = append(errs, c.err.Error())
		}
	}
}

// TestChunkerMatchesLineReader: cutting lines in place in blocks gives
// exactly the lines, numbers and too-long errors of lineReader, whatever
// the block size, the reads' sizes, CRLF, blank and over-long lines, and
// a last line without a newline.
func TestChunkerMatchesLineReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []func() string{
		func() string { return fmt.Sprintf(`{"run":%d}`, rng.IntN(1000)) },
		func() string { return "" },
		func() string { return "  \t" },
		func() string { return "\r" },
		func() string { return strings.Repeat("x", rng.IntN(120)) },
		func() string { return strings.Repeat("y", 60+rng.IntN(3)) + "\r" }, // around maxLine with its CR
		func() string { return strings.Repeat("z", 200+rng.IntN(3000)) },    // far past maxLine
	}
	const maxLine = 61
	for round := 0; round < 400; round++ {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))]())
			b.WriteString("\n")
		}
		if rng.IntN(2) == 0 {
			b.WriteString(pieces[rng.IntN(len(pieces))]()) // no final newline
		}
		in := []byte(b.String())
		wantLines, wantErrs := linesOf(in, maxLine)
		for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in)), iotest.HalfReader(bytes.NewReader(in))} {
			block := 16 + rng.IntN(300)
			gotLines, gotErrs, _ := chunkedLinesOf(r, maxLine, block)
			if fmt.Sprint(gotLines) != fmt.Sprint(wantLines) || fmt.Sprint(gotErrs) != fmt.Sprint(wantErrs) {
				t.Fatalf("input %q, block %d:\nlines %q\nwant  %q\nerrors %q\nwant   %q", in, block, gotLines, wantLines, gotErrs, wantErrs)
			}
		}
	}
}

// TestChunkerReadError: a read error ends the stream with the error, after
// the whole lines read before it.
func TestChunkerReadError(t *testing.T) {
	r := iotest.DataErrReader(io.MultiReader(strings.NewReader("a\nb\npartial"), iotest.ErrReader(fmt.Errorf("disk gone"))))
	lines, errs, _ := chunkedLinesOf(r, 100, 64)
	if fmt.Sprint(lines) != "[1: a 2: b]" || fmt.Sprint(errs) != "[read f: disk gone]" {
		t.Fatalf("lines %q, errors %q", lines, errs)
	}
}
