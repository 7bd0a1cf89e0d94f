package ingest

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// maxNoteBytes caps a free-text field of a CSV input (the note of a label
// or a human label): longer text is refused, not stored.
const maxNoteBytes = 64 << 10

// eachCSV reads one CSV input (labels, human labels): its header, which
// must be the first required columns of cols or more of them in order (else
// it is refused at line 1), then each record with as
// many fields as the header, handed to row with its first line. An input
// without a header is rejected with empty. A record, quoted newlines
// included, longer than the batch's MaxLineBytes stops the file with an
// error instead of growing without bound. It returns how many records it
// read.
func (b *batch) eachCSV(ctx context.Context, f io.Reader, name string, empty error, cols []string, required int,
	row func(rec []string, line int64) error) (int, error) {
	maxRec := b.opts.MaxLineBytes
	cr := &capReader{r: f}
	r := csv.NewReader(cr)
	r.FieldsPerRecord = -1
	var header []string
	var lastLine int64 // last line of the last record read
	for records := 0; ; {
		if err := ctx.Err(); err != nil {
			return records, err
		}
		cr.limit = r.InputOffset() + int64(maxRec) + csvReadAhead
		rec, err := r.Read()
		switch {
		case err == io.EOF:
			if header == nil {
				b.reject(name, 0, empty)
			}
			return records, nil
		case errors.Is(err, errRecordTooLong):
			b.reject(name, lastLine+1, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrTooLong,
				"a record longer than %d bytes; the rest of the file is not read", maxRec)})
			return records, nil
		case err != nil:
			// Declared here: errors.As moves pe to the heap, which must not
			// cost a valid record an allocation.
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return records, fmt.Errorf("read %s: %w", name, err)
			}
			line := lastLine + 1
			if pe.Line > 0 {
				line, err = int64(pe.StartLine), pe.Err
				if pe.Line != pe.StartLine {
					err = fmt.Errorf("%w (record from line %d to %d)", pe.Err, pe.StartLine, pe.Line)
				}
			}
			lastLine = int64(pe.Line)
			b.reject(name, line, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%v", err)})
			if header == nil {
				return 0, nil
			}
			continue
		}
		l0, _ := r.FieldPos(0)
		lEnd, _ := r.FieldPos(len(rec) - 1)
		lastLine = int64(lEnd) + int64(strings.Count(rec[len(rec)-1], "\n"))
		if header == nil { // cells trimmed, a byte-order mark dropped
			for i := range rec {
				rec[i] = strings.TrimSpace(strings.TrimPrefix(rec[i], "\ufeff"))
			}
			if len(rec) < required || len(rec) > len(cols) || !slices.Equal(rec, cols[:len(rec)]) {
				want := strings.Join(cols[:required], ",") + "[," + strings.Join(cols[required:], ",") + "]"
				b.reject(name, 1, &schema.FieldError{Field: "header",
					Err: schema.Reason(schema.ErrValue, "want %s, got %s", want, strings.Join(rec, ","))})
				return 0, nil
			}
			header = rec
			continue
		}
		records++
		if line := int64(l0); len(rec) != len(header) {
			b.reject(name, line, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax,
				"%d fields, header has %d", len(rec), len(header))})
		} else if err := row(rec, line); err != nil {
			return records, err
		}
	}
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
