package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Options configure an ingest. Zero values mean the defaults.
type Options struct {
	Replace      bool // overwrite rows whose key exists with different content
	MaxLineBytes int  // longest accepted JSONL line; 0 means 16 MiB
	// Progress, when set, is called now and then with the rows read so far.
	Progress func(rows int64)
}

// Stats counts what an ingest did, per table.
type Stats struct {
	Tables      map[string]lake.Stats `json:"tables"`
	Inputs      int                   `json:"inputs"`       // files or folders read
	NeedsReview int                   `json:"needs_review"` // categories kept raw: not one of the seven codes
	// Warnings are data problems that do not reject the batch, such as rows
	// naming episodes absent from the lake; always present in JSON ([] when
	// none).
	Warnings []string `json:"warnings"`
	// MissingEpisodes counts, per table, the rows of this batch that name an
	// episode_id the episodes table does not hold (after the batch).
	MissingEpisodes map[string]int `json:"missing_episodes"`
}

// Rejected is returned when any input record was rejected; nothing from
// the batch was committed. Errors holds every rejection in input order.
type Rejected struct {
	Errors RecordErrors
}

func (r *Rejected) Error() string {
	return fmt.Sprintf("%d input record(s) rejected; nothing was committed", len(r.Errors))
}

// Unwrap exposes the record errors to errors.As.
func (r *Rejected) Unwrap() error { return r.Errors }

// batch is one all-or-nothing ingest: one transaction, one writer per table.
type batch struct {
	tx       *lake.Tx
	opts     Options
	stats    Stats
	errs     RecordErrors
	writers  map[string]any // table -> *lake.Writer[row type of the table]
	closers  []func() (string, lake.Stats, error)
	sizeHint int // expected rows of the first table opened
	// wopts are the lake writers' options besides Replace and SizeHint
	// (an Inspect ingest bounds their memory).
	wopts lake.WriterOptions
	// ownRefs: every row names an episode the batch itself adds (an
	// Inspect sample's rows name its own episode), so refs is not kept.
	ownRefs bool

	resultCheck *resultChecker // checks generic result records against each other
	refs        episodeRefs    // episode ids named by rows of other tables
}

// inBatch runs body inside one all-or-nothing batch: it takes the lake's
// lock, lets body read inputs and add rows, then commits, or rolls back
// when body fails or any record was rejected.
func inBatch(ctx context.Context, dst *lake.Lake, opts Options, body func(b *batch) error) (Stats, error) {
	b, err := begin(ctx, dst, opts)
	if err != nil {
		return Stats{}, err
	}
	defer b.tx.Rollback()
	if err := body(b); err != nil {
		return b.stats, err
	}
	return b.finish(ctx)
}

func begin(ctx context.Context, dst *lake.Lake, opts Options) (*batch, error) {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = 16 << 20
	}
	tx, err := dst.Begin(ctx)
	if err != nil {
		return nil, err
	}
	// Stats' maps and lists marshal as {} and [] when empty.
	st := Stats{Tables: map[string]lake.Stats{}, Warnings: []string{}, MissingEpisodes: map[string]int{}}
	refs := episodeRefs{named: map[string]map[string]int{}, added: map[string]bool{}}
	return &batch{tx: tx, opts: opts, stats: st, refs: refs}, nil
}

// writer returns the batch's writer for table, opening it on first use;
// any table of the lake registry works, nothing here is per table.
func writer[T any](b *batch, table string) (*lake.Writer[T], error) {
	if w, ok := b.writers[table].(*lake.Writer[T]); ok {
		return w, nil
	}
	wo := b.wopts
	wo.Replace, wo.SizeHint = b.opts.Replace, b.sizeHint
	nw, err := lake.NewWriter[T](b.tx, table, wo)
	if err != nil {
		return nil, err
	}
	if b.writers == nil {
		b.writers = map[string]any{}
	}
	b.writers[table] = nw
	b.closers = append(b.closers, func() (string, lake.Stats, error) {
		st, err := nw.Close()
		for _, d := range nw.Duplicates() {
			b.reject(d.File, d.Line, &schema.FieldError{Field: keyField(table), Err: fmt.Errorf("%w: %v", schema.ErrDuplicate, d)})
		}
		return table, st, err
	})
	return nw, nil
}

// sourced is a row type: its provenance names the input record it came from.
type sourced interface{ Origin() (string, int64) }

// add validates nothing (decoders do) and offers the row to the table's
// writer, turning key conflicts into record errors at the row's source.
func add[T sourced](b *batch, table string, row *T) error {
	wr, err := writer[T](b, table)
	if err != nil {
		return err
	}
	return addTo(b, wr, table, row)
}

// addAll adds rows to table in order.
func addAll[T sourced](b *batch, table string, rows []T) error {
	for i := range rows {
		if err := add(b, table, &rows[i]); err != nil {
			return err
		}
	}
	return nil
}

// addTo is add with the table's writer at hand (a stream of one table
// looks it up once, not once per row).
func addTo[T sourced](b *batch, wr *lake.Writer[T], table string, row *T) error {
	_, err := wr.Add(row)
	if err == nil {
		if !b.ownRefs {
			b.refs.note(table, row)
		}
		return nil // before errors.As: its target would be allocated per row
	}
	var ce *lake.ConflictError
	if errors.As(err, &ce) {
		file, line := (*row).Origin()
		b.reject(file, line, &schema.FieldError{Field: keyField(table), Err: fmt.Errorf("%w: %v", schema.ErrConflict, ce)})
		return nil
	}
	return err
}

func keyField(table string) string {
	t, err := lake.LookupTable(table)
	if err != nil {
		return "key"
	}
	return strings.Join(t.Key, ",")
}

// reject records one bad input record: one RecordError per bad field when
// err holds several (schema.FieldErrors).
func (b *batch) reject(file string, line int64, err error) {
	b.errs = append(b.errs, recordErrors(file, line, err)...)
}

// recordErrors turns err into RecordErrors at file:line: one per field
// error it holds, or one without a field; RecordErrors or a RecordError it
// holds (errors that name their own place) are kept as they are.
func recordErrors(file string, line int64, err error) []*schema.RecordError {
	if res := RecordErrors(nil); errors.As(err, &res) {
		return res
	}
	if re := (*schema.RecordError)(nil); errors.As(err, &re) {
		return []*schema.RecordError{re}
	}
	if fes := schema.SplitFieldErrors(err); len(fes) > 1 {
		out := make([]*schema.RecordError, len(fes))
		for i, fe := range fes {
			out[i] = &schema.RecordError{File: file, Line: line, Field: fe.Field, Err: fe.Err}
		}
		return out
	}
	re := &schema.RecordError{File: file, Line: line, Err: err}
	var fe *schema.FieldError
	if errors.As(err, &fe) {
		re.Field, re.Err = fe.Field, fe.Err
	}
	return []*schema.RecordError{re}
}

// finish closes the writers and commits, or rolls everything back when any
// record was rejected; a done ctx rolls back too.
func (b *batch) finish(ctx context.Context) (Stats, error) {
	defer b.tx.Rollback()
	for _, c := range b.closers {
		table, st, err := c()
		if err != nil {
			return b.stats, err
		}
		b.stats.Tables[table] = st
	}
	if len(b.errs) > 0 {
		sortInputOrder(b.errs)
		return b.stats, &Rejected{Errors: b.errs}
	}
	if err := ctx.Err(); err != nil {
		return b.stats, err
	}
	if err := b.refs.check(b.tx, &b.stats); err != nil {
		return b.stats, err
	}
	return b.stats, b.tx.Commit()
}

// expandDirs replaces each folder argument by the files in it that keep
// accepts (sorted); a folder without such files is rejected with none.
func (b *batch) expandDirs(args []string, keep func(os.DirEntry) bool, none error) []string {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil || !fi.IsDir() {
			out = append(out, a)
			continue
		}
		ents, err := os.ReadDir(a) // sorted by name
		if err != nil {
			b.reject(a, 0, err)
			continue
		}
		n := len(out)
		for _, e := range ents {
			if keep(e) {
				out = append(out, filepath.Join(a, e.Name()))
			}
		}
		if len(out) == n {
			b.reject(a, 0, none)
		}
	}
	return out
}

// sortInputOrder orders record errors by file (in the order files first
// appear) and line, so duplicates found at the end sit where they occur.
func sortInputOrder(errs RecordErrors) {
	rank := map[string]int{}
	for _, e := range errs {
		if _, ok := rank[e.File]; !ok {
			rank[e.File] = len(rank)
		}
	}
	slices.SortStableFunc(errs, func(a, b *schema.RecordError) int {
		return cmp.Or(cmp.Compare(rank[a.File], rank[b.File]), cmp.Compare(a.Line, b.Line))
	})
}

// eachFile opens each input file in turn and hands it to read, which
// checks ctx between the chunks it reads; a file that cannot be opened is
// a rejected input, not the end of the batch.
func (b *batch) eachFile(ctx context.Context, files []string, read func(ctx context.Context, r io.Reader, name string) error) error {
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := openRegular(name, true)
		if err != nil {
			b.reject(name, 0, err)
			continue
		}
		b.stats.Inputs++
		err = read(ctx, f, name)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
