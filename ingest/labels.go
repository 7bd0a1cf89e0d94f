package ingest

import (
	"context"
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
		return b.eachFile(ctx, files, b.labelStream)
	})
}

// labelStream reads one labels CSV; name names it in messages.
func (b *batch) labelStream(ctx context.Context, f io.Reader, name string) error {
	c := newCSVRecords(f, b.opts.MaxLineBytes)
	header, err := c.header()
	if err == io.EOF {
		b.reject(name, 0, schema.Reason(schema.ErrMissing, "no records (empty input; want the header %s)", strings.Join(labelColumns, ",")))
		return nil
	}
	if err != nil {
		_, err := b.rejectCSV(name, err)
		return err
	}
	if err := checkLabelHeader(header); err != nil {
		b.reject(name, 1, err)
		return nil
	}
	records, before := 0, len(b.errs)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, line, err := c.read()
		if err == io.EOF {
			if records == 0 && len(b.errs) == before {
				b.reject(name, 0, schema.Reason(schema.ErrMissing, "no records (only the header)"))
			}
			return nil
		}
		if err != nil {
			if stop, err := b.rejectCSV(name, err); stop {
				return err
			}
			continue
		}
		records++
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

func checkLabelHeader(h []string) error {
	want := strings.Join(labelColumns[:2], ",") + "[," + strings.Join(labelColumns[2:], ",") + "]"
	if len(h) < 2 || len(h) > len(labelColumns) {
		return &schema.FieldError{Field: "header", Err: schema.Reason(schema.ErrValue, "want %s, got %s", want, strings.Join(h, ","))}
	}
	for i, c := range h {
		if c != labelColumns[i] {
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
	if len(rec) > 3 {
		return checkNote("note", rec[3])
	}
	return nil
}
