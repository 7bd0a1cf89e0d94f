package lake

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
// Scores[k][i] is score_(k+1), valid when HasScore[k][i]. With the run
// numbers (ReadRunCountColumns withRuns): RunNo[k][i] is run_(k+1), valid
// when RunNoValid[k][i], and ScoredVerdicts n_scored_verdicts; HasRunNo[k]
// and HasScoredVerdicts are false for a file without the column (written
// before it: every value NULL).
type RunCountColumns struct {
	IDs                                  []byte
	IDOffsets                            []uint32
	Runs, Parse, Success, Failure, Uncer []int64
	Scores                               [3][]float64
	HasScore                             [3][]bool

	RunNo               [3][]int64
	RunNoValid          [3][]bool
	HasRunNo            [3]bool
	ScoredVerdicts      []int64
	ScoredVerdictsValid []bool
	HasScoredVerdicts   bool
}

// Rows returns the number of rows.
func (c *RunCountColumns) Rows() int { return len(c.Runs) }

// ID returns row i's episode id (its bytes are the columns').
func (c *RunCountColumns) ID(i int) []byte { return c.IDs[c.IDOffsets[i]:c.IDOffsets[i+1]] }

// ReadRunCountColumns reads the columns of a run_counts file that the
// metrics read, whole, and withRuns the scores' run numbers and the runs
// with a verdict and a score: only those columns' pages are decoded. A
// file in another layout fails with ErrColumnLayout.
func ReadRunCountColumns(name string, withRuns bool) (c *RunCountColumns, err error) {
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
	c = &RunCountColumns{IDOffsets: make([]uint32, 1, rows+1)}
	for _, col := range []*[]int64{&c.Runs, &c.Parse, &c.Success, &c.Failure, &c.Uncer} {
		*col = make([]int64, 0, rows)
	}
	ints := []*[]int64{&c.Runs, &c.Parse, &c.Success, &c.Failure, &c.Uncer}
	for k, col := range []string{"n_runs", "n_parse", "n_success", "n_failure", "n_uncertain"} {
		err = readColumn(pf, col, parquet.Int64Type, false, func(p parquet.Page) error {
			d := p.Data()
			*ints[k] = append(*ints[k], d.Int64()...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	err = readColumn(pf, "episode_id", parquet.ByteArrayType, false, func(p parquet.Page) error {
		d := p.Data()
		b, off := d.ByteArray()
		base := uint32(len(c.IDs))
		c.IDs = append(c.IDs, b...)
		for _, o := range off[1:] {
			c.IDOffsets = append(c.IDOffsets, base+o-off[0])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, col := range []string{"score_1", "score_2", "score_3"} {
		if _, err := readOptional(pf, col, parquet.DoubleType, (*encoding.Values).Double, &c.Scores[k], &c.HasScore[k], false); err != nil {
			return nil, err
		}
	}
	if withRuns {
		for k, col := range []string{"run_1", "run_2", "run_3"} {
			if c.HasRunNo[k], err = readOptional(pf, col, parquet.Int64Type, (*encoding.Values).Int64, &c.RunNo[k], &c.RunNoValid[k], true); err != nil {
				return nil, err
			}
		}
		if c.HasScoredVerdicts, err = readOptional(pf, "n_scored_verdicts", parquet.Int64Type, (*encoding.Values).Int64, &c.ScoredVerdicts, &c.ScoredVerdictsValid, true); err != nil {
			return nil, err
		}
	}
	n := len(c.Runs)
	for _, col := range [][]int64{c.Parse, c.Success, c.Failure, c.Uncer} {
		if len(col) != n {
			return nil, fmt.Errorf("%w: columns of %d and %d rows", ErrColumnLayout, n, len(col))
		}
	}
	if len(c.IDOffsets) != n+1 || len(c.Scores[0]) != n || len(c.Scores[1]) != n || len(c.Scores[2]) != n {
		return nil, fmt.Errorf("%w: columns of unequal rows", ErrColumnLayout)
	}
	for k := range c.RunNo {
		if c.HasRunNo[k] && len(c.RunNo[k]) != n {
			return nil, fmt.Errorf("%w: columns of unequal rows", ErrColumnLayout)
		}
	}
	if c.HasScoredVerdicts && len(c.ScoredVerdicts) != n {
		return nil, fmt.Errorf("%w: columns of unequal rows", ErrColumnLayout)
	}
	return c, nil
}

// readColumn calls fn with each page of a top-level column of type t,
// required or (optional) with at most one definition level, unless the
// file has it in another layout (ErrColumnLayout).
func readColumn(pf *parquet.File, column string, t parquet.Type, optional bool, fn func(parquet.Page) error) error {
	leaf, ok := pf.Schema().Lookup(column)
	if !ok || leaf.MaxRepetitionLevel != 0 || leaf.Node.Type().Kind() != t.Kind() ||
		leaf.Node.Required() == optional || optional && leaf.MaxDefinitionLevel != 1 {
		return fmt.Errorf("%w: column %s", ErrColumnLayout, column)
	}
	want := map[parquet.Kind]encoding.Kind{parquet.Int64: encoding.Int64, parquet.Double: encoding.Double, parquet.ByteArray: encoding.ByteArray}[t.Kind()]
	for _, rg := range pf.RowGroups() {
		pages := rg.ColumnChunks()[leaf.ColumnIndex].Pages()
		for {
			p, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pages.Close()
				return fmt.Errorf("read column %s: %w", column, err)
			}
			if d := p.Data(); p.Dictionary() != nil || d.Kind() != want {
				parquet.Release(p)
				pages.Close()
				return fmt.Errorf("%w: column %s encoded as %s", ErrColumnLayout, column, d.Kind())
			}
			err = fn(p)
			parquet.Release(p)
			if err != nil {
				pages.Close()
				return fmt.Errorf("column %s: %w", column, err)
			}
		}
		pages.Close()
	}
	return nil
}

// readOptional reads an optional column of type t into vals, its validity
// into valid (a NULL's value is zero). A missing column is ErrColumnLayout
// unless missingOK: then present is false and vals stay empty.
func readOptional[T any](pf *parquet.File, column string, t parquet.Type, get func(*encoding.Values) []T, vals *[]T, valid *[]bool, missingOK bool) (present bool, err error) {
	if _, ok := pf.Schema().Lookup(column); !ok && missingOK {
		return false, nil
	}
	var zero T
	*vals, *valid = make([]T, 0, pf.NumRows()), make([]bool, 0, pf.NumRows())
	err = readColumn(pf, column, t, true, func(p parquet.Page) error {
		d := p.Data()
		got, defs := get(&d), p.DefinitionLevels()
		if int64(len(defs)) != p.NumValues() {
			return ErrColumnLayout
		}
		j := 0
		for _, def := range defs {
			if def != 1 {
				*vals, *valid = append(*vals, zero), append(*valid, false)
				continue
			}
			if j == len(got) {
				return ErrColumnLayout
			}
			*vals, *valid = append(*vals, got[j]), append(*valid, true)
			j++
		}
		if j != len(got) {
			return ErrColumnLayout
		}
		return nil
	})
	return err == nil, err
}
