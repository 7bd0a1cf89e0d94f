package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// humanColumns is the header of a human-labels CSV; note is optional.
var humanColumns = []string{"episode_id", "pass", "annotator", "note"}

// Accepted spellings of a human pass/fail judgment (case-insensitive).
var (
	humanPass   = []string{"pass", "true", "1", "yes", "success", "successful"}
	humanFail   = []string{"fail", "false", "0", "no", "failure", "unsuccessful"}
	humanUnsure = []string{"unsure", "uncertain", "unknown"}
)

// HumanLabels ingests human pass/fail judgments as ground truth (source
// human, one row per episode and annotator, no verifier hash) from CSV
// files with the header episode_id,pass,annotator[,note]. pass is one of
// pass/fail, true/false, 1/0, yes/no, success/failure,
// successful/unsuccessful; unsure (or uncertain, unknown) judgments are
// skipped and counted in a warning. Every error of a line is reported.
func HumanLabels(ctx context.Context, dst *lake.Lake, files []string, opts Options) (Stats, error) {
	empty := schema.Reason(schema.ErrMissing, "empty file (want the header %s[,note])", strings.Join(humanColumns[:3], ","))
	return inBatch(ctx, dst, opts, func(b *batch) error {
		unsure := 0
		err := b.eachFile(ctx, files, func(ctx context.Context, f io.Reader, name string) error {
			_, err := b.eachCSV(ctx, f, name, empty, humanColumns, 3, func(rec []string, line int64) error {
				g, skip, errs := humanRow(rec)
				for _, e := range errs {
					b.reject(name, line, e)
				}
				if skip {
					unsure++
				}
				if skip || len(errs) > 0 {
					return nil
				}
				g.SrcFile, g.SrcLine = name, line
				return add(b, lake.GroundTruth, &g)
			})
			return err
		})
		if unsure > 0 {
			b.stats.Warnings = append(b.stats.Warnings, fmt.Sprintf("%d unsure judgment(s) skipped: not ground truth", unsure))
		}
		return err
	})
}

// humanRow turns one CSV record into a ground-truth row; skip is true for
// an unsure judgment. It returns every error of the record.
func humanRow(rec []string) (g schema.GroundTruth, skip bool, errs []error) {
	if errs = checkCells(rec, humanColumns); len(errs) > 0 {
		return g, false, errs
	}
	g = schema.GroundTruth{EpisodeID: strings.TrimSpace(rec[0]), Source: schema.GTHuman, Diagnostics: "null", Gates: "[]"}
	ann := strings.TrimSpace(rec[2])
	g.Annotator = &ann
	if len(rec) > 3 && rec[3] != "" {
		note, _ := json.Marshal(map[string]string{"note": rec[3]})
		g.Diagnostics = string(note)
	}
	v := strings.ToLower(strings.TrimSpace(rec[1]))
	switch {
	case slices.Contains(humanPass, v):
		g.Pass = true
	case slices.Contains(humanFail, v):
	case slices.Contains(humanUnsure, v):
		skip = true
	case v == "":
		errs = append(errs, &schema.FieldError{Field: "pass", Err: schema.ErrMissing})
	default:
		errs = append(errs, &schema.FieldError{Field: "pass", Err: schema.Reason(schema.ErrValue, "%q is not pass or fail (or true/false, 1/0, yes/no, success/failure, successful/unsuccessful; unsure is skipped)", rec[1])})
	}
	if g.EpisodeID == "" {
		errs = append(errs, &schema.FieldError{Field: "episode_id", Err: schema.ErrMissing})
	}
	if ann == "" {
		errs = append(errs, &schema.FieldError{Field: "annotator", Err: schema.Reason(schema.ErrMissing, "human ground truth names its annotator")})
	}
	if len(errs) == 0 && !skip {
		if err := g.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return g, skip, errs
}
