package lake

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// ErrColumnLayout means a file's columns are not in the layout
// ReadRunCountColumns reads (a column missing, of another type or
// repetition, or dictionary encoded): the caller reads the file another
// way (SQL).
var ErrColumnLayout = errors.New("column layout not covered")

// RunCountFile is one run_counts file of a snapshot: its absolute path
// and the judge and condition of its partition.
type RunCountFile struct {
	Path             string
	Judge, Condition string
}

// RunCountFiles returns the run_counts files of the snapshot in manifest
// order, checked as CheckedFiles checks them.
func (s Snapshot) RunCountFiles() ([]RunCountFile, error) {
	paths, err := s.CheckedFiles(RunCounts)
	if err != nil {
		return nil, err
	}
	out := make([]RunCountFile, 0, len(paths))
	for _, f := range s.m.Files {
		if f.Table != RunCounts {
			continue
		}
		if len(f.Partition) != 2 {
			return nil, fmt.Errorf("%w: %s: %d partition values", ErrBadPath, f.Path, len(f.Partition))
		}
		out = append(out, RunCountFile{Path: paths[len(out)], Judge: f.Partition[0], Condition: f.Partition[1]})
	}
	return out, nil
}

// RunCountColumns are the columns of one run_counts file that the metrics
// read, row by row: episode i's id is IDs[IDOffsets[i]:IDOffsets[i+1]];
// Score(k, i) is score_(k+1). With the run numbers (ReadRunCountColumns
// withRuns): RunNo(k, i) is run_(k+1) and ScoredVerdicts(i)
// n_scored_verdicts (NULL in a file written before the column). The
// counts are int32 (a file with a count beyond is ErrColumnLayout).
type RunCountColumns struct {
	IDs                                  []byte
	IDOffsets                            []uint32
	Runs, Parse, Success, Failure, Uncer []int32
	scores                               [3]optional[float64]
	runNo                                [3]optional[int64]
	scoredVerdicts                       optional[int64]
}

// optional is a column that may hold NULLs: valid[i] is row i's
// definition level (1: a value, 0: NULL); valid nil means no NULL, or with
// vals nil only NULLs (or a missing column).
type optional[T any] struct {
	vals  []T
	valid []byte
}

func (o *optional[T]) at(i int) (T, bool) {
	var zero T
	switch {
	case o.valid != nil:
		return o.vals[i], o.valid[i] == 1
	case o.vals == nil:
		return zero, false
	}
	return o.vals[i], true
}

// Rows returns the number of rows.
func (c *RunCountColumns) Rows() int { return len(c.Runs) }

// ID returns row i's episode id (its bytes are the columns').
func (c *RunCountColumns) ID(i int) []byte { return c.IDs[c.IDOffsets[i]:c.IDOffsets[i+1]] }

// Score returns score_(k+1) of row i, false when NULL.
func (c *RunCountColumns) Score(k, i int) (float64, bool) { return c.scores[k].at(i) }

// RunNo returns run_(k+1) of row i, false when NULL.
func (c *RunCountColumns) RunNo(k, i int) (int64, bool) { return c.runNo[k].at(i) }

// ScoredVerdicts returns n_scored_verdicts of row i, false when NULL.
func (c *RunCountColumns) ScoredVerdicts(i int) (int64, bool) { return c.scoredVerdicts.at(i) }

// ReadRunCountColumns reads the columns of a run_counts file that the
// metrics read, whole, and withRuns the scores' run numbers and the runs
// with a verdict and a score: only those columns' pages are decoded. When
// the file's episode ids are those of like (a file read before, or nil),
// the columns share like's IDs instead of a copy. A file in another layout
// fails with ErrColumnLayout.
func ReadRunCountColumns(name string, withRuns bool, like *RunCountColumns) (c *RunCountColumns, err error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(fh, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Base(name), err)
	}
	rows := int(pf.NumRows())
	c = &RunCountColumns{}
	ints := []*[]int32{&c.Runs, &c.Parse, &c.Success, &c.Failure, &c.Uncer}
	for k, col := range []string{"n_runs", "n_parse", "n_success", "n_failure", "n_uncertain"} {
		*ints[k] = make([]int32, 0, rows)
		err = readColumn(pf, col, parquet.Int64Type, false, func(p parquet.Page) error {
			d := p.Data()
			for _, v := range d.Int64() {
				if v != int64(int32(v)) {
					return ErrColumnLayout
				}
				*ints[k] = append(*ints[k], int32(v))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if c.IDs, c.IDOffsets, err = readIDs(pf, rows, like); err != nil {
		return nil, err
	}
	for k, col := range []string{"score_1", "score_2", "score_3"} {
		if c.scores[k], err = readOptional(pf, col, parquet.DoubleType, (*encoding.Values).Double, false); err != nil {
			return nil, err
		}
	}
	if withRuns {
		for k, col := range []string{"run_1", "run_2", "run_3"} {
			if c.runNo[k], err = readOptional(pf, col, parquet.Int64Type, (*encoding.Values).Int64, true); err != nil {
				return nil, err
			}
		}
		if c.scoredVerdicts, err = readOptional(pf, "n_scored_verdicts", parquet.Int64Type, (*encoding.Values).Int64, true); err != nil {
			return nil, err
		}
	}
	n := len(c.Runs)
	same := len(c.IDOffsets) == n+1
	for _, col := range [][]int32{c.Parse, c.Success, c.Failure, c.Uncer} {
		same = same && len(col) == n
	}
	for _, o := range []*optional[float64]{&c.scores[0], &c.scores[1], &c.scores[2]} {
		same = same && (o.vals == nil || len(o.vals) == n)
	}
	for _, o := range []*optional[int64]{&c.runNo[0], &c.runNo[1], &c.runNo[2], &c.scoredVerdicts} {
		same = same && (o.vals == nil || len(o.vals) == n)
	}
	if !same {
		return nil, fmt.Errorf("%w: columns of unequal rows", ErrColumnLayout)
	}
	return c, nil
}

// readColumn calls fn with each page of a top-level column of type t,
// required or (optional) with at most one definition level, unless the
// file has it in another layout (ErrColumnLayout). Each page is released
// after fn: fn copies what it keeps.
func readColumn(pf *parquet.File, column string, t parquet.Type, optional bool, fn func(parquet.Page) error) error {
	leaf, ok := pf.Schema().Lookup(column)
	if !ok || leaf.MaxRepetitionLevel != 0 || leaf.Node.Type().Kind() != t.Kind() ||
		leaf.Node.Required() == optional || optional && leaf.MaxDefinitionLevel != 1 {
		return fmt.Errorf("%w: column %s", ErrColumnLayout, column)
	}
	want := map[parquet.Kind]encoding.Kind{parquet.Int64: encoding.Int64, parquet.Double: encoding.Double, parquet.ByteArray: encoding.ByteArray}[t.Kind()]
	err := eachPage(pf, leaf.ColumnIndex, func(p parquet.Page) error {
		d := p.Data()
		if p.Dictionary() != nil || d.Kind() != want || optional && int64(len(p.DefinitionLevels())) != p.NumValues() {
			return fmt.Errorf("%w: column %s encoded as %s", ErrColumnLayout, column, d.Kind())
		}
		return fn(p)
	})
	if err != nil && !errors.Is(err, ErrColumnLayout) {
		return fmt.Errorf("read column %s: %w", column, err)
	}
	return err
}

// readIDs reads the episode_id column: like's ids (shared) while the
// file's are the same, a copy from the first difference on.
func readIDs(pf *parquet.File, rows int, like *RunCountColumns) ([]byte, []uint32, error) {
	var ids []byte
	offs := make([]uint32, 1, rows+1)
	shared := like != nil // the values so far are like's
	err := readColumn(pf, "episode_id", parquet.ByteArrayType, false, func(p parquet.Page) error {
		d := p.Data()
		b, off := d.ByteArray()
		n, at := len(offs)-1, offs[len(offs)-1]
		if shared && n+len(off)-1 < len(like.IDOffsets) && int(at)+len(b) <= len(like.IDs) && bytes.Equal(like.IDs[at:int(at)+len(b)], b) {
			same := true
			for i, o := range off[1:] {
				if like.IDOffsets[n+1+i] != at+o-off[0] {
					same = false
					break
				}
			}
			if same {
				offs = append(offs, like.IDOffsets[n+1:n+len(off)]...)
				return nil
			}
		}
		if shared { // copy what was like's so far
			shared = false
			ids = append(make([]byte, 0, int(at)+len(b)*rows/max(1, len(off)-1)+len(b)), like.IDs[:at]...)
		}
		if ids == nil {
			ids = make([]byte, 0, len(b)*rows/max(1, len(off)-1)+len(b))
		}
		base := uint32(len(ids))
		ids = append(ids, b...)
		for _, o := range off[1:] {
			offs = append(offs, base+o-off[0])
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if shared {
		n := len(offs) - 1
		if n+1 > len(like.IDOffsets) {
			return nil, nil, ErrColumnLayout
		}
		return like.IDs[:like.IDOffsets[n]], like.IDOffsets[:n+1], nil
	}
	if ids == nil {
		ids = []byte{}
	}
	return ids, offs, nil
}

// readOptional reads an optional column of type t. A missing column is
// ErrColumnLayout unless missingOK: then every value is NULL.
func readOptional[T any](pf *parquet.File, column string, t parquet.Type, get func(*encoding.Values) []T, missingOK bool) (optional[T], error) {
	if _, ok := pf.Schema().Lookup(column); !ok && missingOK {
		return optional[T]{}, nil
	}
	rows := int(pf.NumRows())
	var o optional[T]
	nulls := 0 // leading rows, all NULL, not yet in o
	err := readColumn(pf, column, t, true, func(p parquet.Page) error {
		d := p.Data()
		got, defs := get(&d), p.DefinitionLevels()
		if len(got) > len(defs) {
			return ErrColumnLayout
		}
		if len(got) == 0 && o.vals == nil { // only NULLs so far
			nulls += len(defs)
			return nil
		}
		if o.vals == nil {
			o.vals = make([]T, nulls, rows)
			if nulls > 0 {
				o.valid = make([]byte, nulls, rows)
			}
		}
		at := len(o.vals)
		if len(got) == len(defs) { // no NULL
			o.vals = append(o.vals, got...)
			if o.valid != nil {
				o.valid = append(o.valid, defs...)
			}
			return nil
		}
		if o.valid == nil { // the rows so far had no NULL
			o.valid = make([]byte, at, rows)
			for i := range o.valid {
				o.valid[i] = 1
			}
		}
		o.valid = append(o.valid, defs...)
		o.vals = slices.Grow(o.vals, len(defs))[:at+len(defs)]
		v := o.vals[at:]
		var zero T
		j := 0
		for i, def := range defs {
			if def != 1 {
				v[i] = zero
				continue
			}
			if j == len(got) {
				return ErrColumnLayout
			}
			v[i] = got[j]
			j++
		}
		if j != len(got) {
			return ErrColumnLayout
		}
		return nil
	})
	if err != nil {
		return optional[T]{}, err
	}
	return o, nil
}
