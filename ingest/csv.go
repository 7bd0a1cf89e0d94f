package ingest

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// maxNoteBytes caps a free-text field of a CSV input (the note of a label
// or a human label): longer text is refused, not stored.
const maxNoteBytes = 64 << 10

// csvRecords reads the records of one CSV input (labels, human labels)
// with the caps every CSV input shares: a record, quoted newlines
// included, longer than the batch's MaxLineBytes stops the file with an
// error instead of growing without bound.
type csvRecords struct {
	cr       *capReader
	r        *csv.Reader
	max      int
	lastLine int64
}

func newCSVRecords(f io.Reader, maxRecord int) *csvRecords {
	cr := &capReader{r: f, limit: int64(maxRecord) + csvReadAhead}
	r := csv.NewReader(cr)
	r.FieldsPerRecord = -1
	return &csvRecords{cr: cr, r: r, max: maxRecord}
}

// eachCSV reads one CSV input: its header, which checkHeader accepts or
// refuses (at line 1), then each record with as many fields as the header,
// handed to row with its line. An input without a header is rejected with
// empty. It returns how many records it read.
func (b *batch) eachCSV(ctx context.Context, f io.Reader, name string, empty error, checkHeader func([]string) error,
	row func(rec []string, line int64) error) (int, error) {
	c := newCSVRecords(f, b.opts.MaxLineBytes)
	header, err := c.header()
	if err == io.EOF {
		b.reject(name, 0, empty)
		return 0, nil
	}
	if err != nil {
		_, err := b.rejectCSV(name, err)
		return 0, err
	}
	if err := checkHeader(header); err != nil {
		b.reject(name, 1, err)
		return 0, nil
	}
	for records := 0; ; {
		if err := ctx.Err(); err != nil {
			return records, err
		}
		rec, line, err := c.read()
		if err == io.EOF {
			return records, nil
		}
		if err != nil {
			if stop, err := b.rejectCSV(name, err); stop {
				return records, err
			}
			continue
		}
		records++
		if len(rec) != len(header) {
			b.reject(name, line, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%d fields, header has %d", len(rec), len(header))})
			continue
		}
		if err := row(rec, line); err != nil {
			return records, err
		}
	}
}

// rejectCSV reports a refused CSV record (a *csvReject) at its line; stop
// says the rest of the file is not read, with err set for an I/O error.
func (b *batch) rejectCSV(name string, err error) (stop bool, _ error) {
	var cr *csvReject
	if !errors.As(err, &cr) {
		return true, fmt.Errorf("read %s: %w", name, err)
	}
	b.reject(name, cr.line, cr.err)
	return cr.stop, nil
}

// csvReject is a record the reader refuses; stop says the rest of the
// file is not read.
type csvReject struct {
	line int64
	err  error
	stop bool
}

func (e *csvReject) Error() string { return e.err.Error() }

// read returns the next record and its first line; err is io.EOF at the
// end, a *csvReject for a record that is refused, or an I/O error.
func (c *csvRecords) read() (rec []string, line int64, err error) {
	c.cr.limit = c.r.InputOffset() + int64(c.max) + csvReadAhead
	rec, err = c.r.Read()
	if err == io.EOF {
		return nil, 0, err
	}
	if err != nil {
		if errors.Is(err, errRecordTooLong) {
			return nil, 0, &csvReject{line: c.lastLine + 1, stop: true, err: &schema.FieldError{Field: "csv",
				Err: schema.Reason(schema.ErrTooLong, "a record longer than %d bytes; the rest of the file is not read", c.max)}}
		}
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return nil, 0, err
		}
		line := c.lastLine + 1
		if pe.Line > 0 {
			line = int64(pe.StartLine)
			err = pe.Err
			if pe.Line != pe.StartLine {
				err = fmt.Errorf("%w (record from line %d to %d)", pe.Err, pe.StartLine, pe.Line)
			}
		}
		c.lastLine = int64(pe.Line)
		return nil, 0, &csvReject{line: line, err: &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%v", err)}}
	}
	l0, _ := c.r.FieldPos(0)
	lEnd, _ := c.r.FieldPos(len(rec) - 1)
	c.lastLine = int64(lEnd) + int64(strings.Count(rec[len(rec)-1], "\n"))
	return rec, int64(l0), nil
}

// header reads the header record with its cells trimmed (and a byte-order
// mark dropped); err is io.EOF when there is none.
func (c *csvRecords) header() ([]string, error) {
	h, _, err := c.read()
	if err != nil {
		return nil, err
	}
	for i := range h {
		h[i] = strings.TrimSpace(strings.TrimPrefix(h[i], "\ufeff"))
	}
	return h, nil
}

// checkCells returns an error for each cell of a CSV record (columns
// named by cols) that is not UTF-8, and for a note (column 3) over
// maxNoteBytes.
func checkCells(rec, cols []string) []error {
	var errs []error
	for i, s := range rec {
		if err := checkLine([]byte(s)); err != nil {
			errs = append(errs, &schema.FieldError{Field: cols[i], Err: err})
		}
	}
	if len(rec) > 3 && len(rec[3]) > maxNoteBytes {
		errs = append(errs, &schema.FieldError{Field: "note", Err: schema.Reason(schema.ErrValue,
			"%d bytes of text; a note may hold at most %d (%d KiB)", len(rec[3]), maxNoteBytes, maxNoteBytes>>10)})
	}
	return errs
}

// csvReadAhead is how far encoding/csv reads past the record it parses.
const csvReadAhead = 64 << 10

var errRecordTooLong = errors.New("record too long")

// capReader fails with errRecordTooLong once limit bytes were read; the
// reader of records moves limit forward after each record.
type capReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n >= c.limit {
		return 0, errRecordTooLong
	}
	if int64(len(p)) > c.limit-c.n {
		p = p[:c.limit-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
