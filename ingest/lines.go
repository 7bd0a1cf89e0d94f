package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/trustlake/trustlake/schema"
)

// lineReader yields the lines of a JSONL input without ever holding more
// than maxLine bytes: a longer line is skipped (consumed, not stored) and
// reported as too long.
type lineReader struct {
	r       *bufio.Reader
	maxLine int
	line    int64
	long    []byte
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

// checkLine rejects lines that are not UTF-8.
func checkLine(b []byte) error {
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%w at byte %d", schema.ErrEncoding, i)
	}
	return nil
}

// checkJSONText is checkLine for JSON text, which also refuses a lone
// surrogate escape (\ud800 without its pair): encoding/json reads it, and
// an invalid byte, as U+FFFD, so two different ids or texts become equal.
func checkJSONText(b []byte) error {
	if err := checkLine(b); err != nil {
		return err
	}
	if off, r := loneSurrogate(b); off >= 0 {
		return fmt.Errorf("%w: lone surrogate escape \\u%04x at byte %d (not a character)", schema.ErrEncoding, r, off)
	}
	return nil
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
