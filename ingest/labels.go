package ingest

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// labelHeader is the required CSV header; annotator and note are optional.
var labelColumns = []string{"episode_id", "category", "annotator", "note"}

// Labels ingests manual failure categories from CSV files with the header
// episode_id,category[,annotator,note]. A category outside the seven codes
// is kept raw and counted as needing review.
func Labels(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	return inBatch(ctx, dst, opts, func(b *batch) error {
		return b.eachFile(files, b.labelStream)
	})
}

// labelStream reads one labels CSV; name names it in messages. A record
// (one row, quoted newlines included) longer than MaxLineBytes stops the
// file with an error instead of growing without bound.
func (b *batch) labelStream(f io.Reader, name string) error {
	cr := &capReader{r: f, limit: int64(b.opts.MaxLineBytes) + csvReadAhead}
	r := csv.NewReader(cr)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		b.reject(name, 0, schema.Reason(schema.ErrMissing, "no records (empty input; want the header %s)", strings.Join(labelColumns, ",")))
		return nil
	}
	if err != nil {
		b.rejectCSV(name, 1, err)
		return nil
	}
	if err := checkLabelHeader(header); err != nil {
		b.reject(name, 1, err)
		return nil
	}
	lastLine, records, before := int64(1), 0, len(b.errs)
	for {
		cr.limit = r.InputOffset() + int64(b.opts.MaxLineBytes) + csvReadAhead
		rec, err := r.Read()
		if err == io.EOF {
			if records == 0 && len(b.errs) == before {
				b.reject(name, 0, schema.Reason(schema.ErrMissing, "no records (only the header)"))
			}
			return nil
		}
		if err != nil {
			if errors.Is(err, errRecordTooLong) {
				b.reject(name, lastLine+1, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrTooLong, "a record longer than %d bytes; the rest of the file is not read", b.opts.MaxLineBytes)})
				return nil
			}
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return fmt.Errorf("read %s: %w", name, err)
			}
			b.rejectCSV(name, lastLine+1, err)
			lastLine = int64(pe.Line)
			continue
		}
		records++
		l0, _ := r.FieldPos(0)
		line := int64(l0)
		lEnd, _ := r.FieldPos(len(rec) - 1)
		lastLine = int64(lEnd) + int64(strings.Count(rec[len(rec)-1], "\n"))
		if len(rec) != len(header) {
			b.reject(name, line, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%d fields, header has %d", len(rec), len(header))})
			continue
		}
		l := schema.Label{EpisodeID: strings.TrimSpace(rec[0]), CategoryRaw: strings.TrimSpace(rec[1])}
		raw := l.CategoryRaw
		l.Category, _ = schema.NormalizeCategory(&raw)
		if len(rec) > 2 && rec[2] != "" {
			l.Annotator = &rec[2]
		}
		if len(rec) > 3 && rec[3] != "" {
			l.Note = &rec[3]
		}
		if err := checkLineString(rec); err != nil {
			b.reject(name, line, err)
			continue
		}
		if err := l.Validate(); err != nil {
			b.reject(name, line, err)
			continue
		}
		if l.Category == nil {
			b.stats.NeedsReview++
		}
		l.SrcFile, l.SrcLine = name, line
		if err := add(b, lake.Labels, &l, name, line); err != nil {
			return err
		}
	}
}

// rejectCSV reports a CSV syntax error at the line the parser names (or
// line when it names none).
func (b *batch) rejectCSV(name string, line int64, err error) {
	var pe *csv.ParseError
	if errors.As(err, &pe) && pe.Line > 0 {
		line = int64(pe.StartLine)
		err = pe.Err
		if pe.Line != pe.StartLine {
			err = fmt.Errorf("%w (record from line %d to %d)", pe.Err, pe.StartLine, pe.Line)
		}
	}
	b.reject(name, line, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%v", err)})
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

func checkLabelHeader(h []string) error {
	want := strings.Join(labelColumns[:2], ",") + "[," + strings.Join(labelColumns[2:], ",") + "]"
	if len(h) < 2 || len(h) > len(labelColumns) {
		return &schema.FieldError{Field: "header", Err: schema.Reason(schema.ErrValue, "want %s, got %s", want, strings.Join(h, ","))}
	}
	for i, c := range h {
		if strings.TrimSpace(strings.TrimPrefix(c, "\ufeff")) != labelColumns[i] {
			return &schema.FieldError{Field: "header", Err: schema.Reason(schema.ErrValue, "want %s, got %s", want, strings.Join(h, ","))}
		}
	}
	return nil
}

func checkLineString(rec []string) error {
	for i, s := range rec {
		if err := checkLine([]byte(s)); err != nil {
			return &schema.FieldError{Field: labelColumns[i], Err: fmt.Errorf("%w", err)}
		}
	}
	return nil
}
