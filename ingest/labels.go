package ingest

import (
	"context"
	"io"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// labelColumns is the CSV header; annotator and note are optional.
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
	before := len(b.errs)
	empty := schema.Reason(schema.ErrMissing, "no records (empty input; want the header %s)", strings.Join(labelColumns, ","))
	records, err := b.eachCSV(ctx, f, name, empty, labelColumns, 2, func(rec []string, line int64) error {
		l := schema.Label{EpisodeID: strings.TrimSpace(rec[0]), CategoryRaw: strings.TrimSpace(rec[1])}
		if len(rec) > 2 && rec[2] != "" {
			l.Annotator = &rec[2]
		}
		if len(rec) > 3 && rec[3] != "" {
			l.Note = &rec[3]
		}
		if errs := checkCells(rec, labelColumns); len(errs) > 0 {
			b.reject(name, line, errs[0])
			return nil
		}
		return b.addLabel(&l, name, line)
	})
	if err == nil && records == 0 && len(b.errs) == before {
		b.reject(name, 0, schema.Reason(schema.ErrMissing, "no records (only the header)"))
	}
	return err
}

// addLabel validates and adds a label row; a category outside the seven
// codes is kept raw and counted as needing review.
func (b *batch) addLabel(l *schema.Label, src string, line int64) error {
	raw := l.CategoryRaw
	l.Category, _ = schema.NormalizeCategory(&raw)
	if err := l.Validate(); err != nil {
		b.reject(src, line, err)
		return nil
	}
	if l.Category == nil {
		b.stats.NeedsReview++
	}
	l.SrcFile, l.SrcLine = src, line
	return add(b, lake.Labels, l)
}
