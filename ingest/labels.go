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

// labelStream reads one labels CSV; name names it in messages.
func (b *batch) labelStream(f io.Reader, name string) error {
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		b.reject(name, 0, schema.Reason(schema.ErrMissing, "empty file (want the header %s)", strings.Join(labelColumns, ",")))
		return nil
	}
	if err != nil {
		b.reject(name, 1, &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%v", err)})
		return nil
	}
	if err := checkLabelHeader(header); err != nil {
		b.reject(name, 1, err)
		return nil
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			b.reject(name, int64(line), &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%v", err)})
			continue
		}
		if len(rec) != len(header) {
			b.reject(name, int64(line), &schema.FieldError{Field: "csv", Err: schema.Reason(schema.ErrSyntax, "%d fields, header has %d", len(rec), len(header))})
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
			b.reject(name, int64(line), err)
			continue
		}
		if err := l.Validate(); err != nil {
			b.reject(name, int64(line), err)
			continue
		}
		if l.Category == nil {
			b.stats.NeedsReview++
		}
		l.SrcFile, l.SrcLine = name, int64(line)
		if err := add(b, lake.Labels, &l, name, int64(line)); err != nil {
			return err
		}
	}
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
