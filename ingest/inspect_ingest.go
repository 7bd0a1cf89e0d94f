package ingest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Inspect ingests Inspect AI logs (.eval, the ZIP inspect-ai writes, with
// zstd or deflate entries; or .json, log_format="json") into the episodes,
// actions, results, verdicts and ground_truth tables as one all-or-nothing
// batch. A path that is a folder stands for the .eval and .json files in
// it (not recursive; inspect-ai's logs.json and listing.json are skipped). Samples
// are read one at a time, so memory does not grow with their number.
//
// The mapping is in inspectRun.rows. A log whose run has not finished
// (an .eval without header.json) is read from its journal: its completed
// samples are ingested (they are final once written), with a warning;
// ingesting the finished log later adds the rest and leaves those
// unchanged. Bad records are reported as "file:entry: field: reason"
// (for a .json log "file:line: field: reason") and nothing is committed.
func Inspect(ctx context.Context, dst *lake.Lake, paths []string, iopts InspectOptions, opts Options) (Stats, error) {
	return inBatch(ctx, dst, opts, func(b *batch) error {
		b.wopts, b.ownRefs = inspectWriters, true
		var rows int64
		noLogs := schema.Reason(schema.ErrMissing, "a folder with no .eval or .json logs")
		for _, name := range b.expandDirs(paths, isInspectLog, noLogs) {
			b.stats.Inputs++
			if err := b.inspectLog(ctx, name, iopts, &rows); err != nil {
				return err
			}
		}
		return nil
	})
}

// inspectWriters bound the lake writers' memory, so that it does not grow
// with the samples of a log: Inspect rows are wide (a verdict keeps the
// grader's metadata), and each sample's rows name their own entry, which
// a dictionary would hold for every sample.
var inspectWriters = lake.WriterOptions{BatchRows: 256, KeysInMemory: 8192, RowGroupRows: 8192, CountsInMemory: 4096, FileRows: 1 << 16, DictionaryBytes: 16 << 10}

// inspectListings are the JSON files inspect-ai writes beside the logs of
// a folder (a manifest and a listing): skipped when a folder is read.
var inspectListings = map[string]bool{"logs.json": true, "listing.json": true}

// isInspectLog says whether a folder entry is a log (not a listing).
func isInspectLog(e os.DirEntry) bool {
	n := e.Name()
	return e.Type().IsRegular() && (strings.HasSuffix(n, ".eval") || strings.HasSuffix(n, ".json")) && !inspectListings[n]
}

// inspectLog reads one log. Bad input is collected in b.errs; the error
// returned is for the batch as a whole (cancellation, a write failure).
func (b *batch) inspectLog(ctx context.Context, name string, iopts InspectOptions, rows *int64) error {
	rd, err := openInspect(name)
	if err != nil {
		b.reject(name, 0, err)
		return nil
	}
	defer rd.Close()
	h, err := rd.header()
	if err != nil {
		b.reject(name, 0, err)
		return nil
	}
	run := newInspectRun(name, h, iopts)
	samples := 0
	err = rd.samples(func(e sampleEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		samples++
		s, ferrs := decodeSample(e.raw)
		var out *inspectRows
		if len(ferrs) == 0 {
			out, ferrs = run.rows(s, e.where, e.line)
		}
		for _, fe := range ferrs {
			b.reject(e.where, e.line, &schema.FieldError{Field: fe.field, Err: fe.err})
		}
		if out == nil {
			return nil
		}
		if err := b.addInspect(out); err != nil {
			return err
		}
		*rows++
		if b.opts.Progress != nil && *rows%256 == 0 {
			b.opts.Progress(*rows)
		}
		return nil
	})
	if err != nil {
		var re *schema.RecordError
		if !errors.As(err, &re) {
			return err
		}
		b.errs = append(b.errs, re)
	}
	b.inspectWarnings(name, h, run, samples)
	return nil
}

func (b *batch) addInspect(out *inspectRows) error {
	// The mapping builds valid rows from a valid log; what the log may
	// still lack (a model, a task name) is caught here, on the episode and
	// the first result and verdict (the rows of one sample share it).
	check := []interface{ Validate() error }{&out.ep}
	if len(out.results) > 0 {
		check = append(check, &out.results[0])
	}
	if len(out.verdicts) > 0 {
		check = append(check, &out.verdicts[0])
	}
	bad := false
	for _, v := range check {
		if err := v.Validate(); err != nil {
			b.reject(out.ep.SrcFile, out.ep.SrcLine, err)
			bad = true
		}
	}
	if bad {
		return nil
	}
	if err := add(b, lake.Episodes, &out.ep); err != nil {
		return err
	}
	if err := addAll(b, lake.Actions, out.acts); err != nil {
		return err
	}
	if err := addAll(b, lake.Results, out.results); err != nil {
		return err
	}
	if err := addAll(b, lake.Verdicts, out.verdicts); err != nil {
		return err
	}
	return addAll(b, lake.GroundTruth, out.truths)
}

// inspectWarnings says what a user should know about a log that was read
// without rejection: an unfinished or failed run, no ground truth, scores
// not recorded as results.
func (b *batch) inspectWarnings(name string, h *inspectHeader, run *inspectRun, samples int) {
	warn := func(format string, args ...any) {
		b.stats.Warnings = append(b.stats.Warnings, name+": "+fmt.Sprintf(format, args...))
	}
	switch {
	case h.Unfinished:
		warn("unfinished log (no header.json): %d completed sample(s) read from the journal; ingest it again when the run ends to add the rest", samples)
	case h.Status != "" && h.Status != "success":
		warn("log status %q: %d sample(s) read", h.Status, samples)
	}
	if samples == 0 {
		warn("no samples (was the log written with log_samples=False?)")
	}
	if run.decided && run.gt == "" && run.opts.GroundTruth != "none" {
		if others := run.others; len(others) == 0 {
			warn("no ground truth: every scorer is a judge; name one with --ground-truth to measure the others against it")
		} else {
			warn("no ground truth: %d non-judge scorers (%s); name one with --ground-truth", len(others), strings.Join(others, ", "))
		}
	}
	for _, n := range slices.Sorted(maps.Keys(run.skipped)) {
		warn("scorer %s: %d score(s) not recorded as results (missing, not a scalar, or outside [0, 1])", n, run.skipped[n])
	}
}
