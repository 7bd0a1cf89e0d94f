package lake

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
)

// Companion files. A table declared with a companion table (verdicts with
// run_counts, tables.go) has, beside each data file, a file of the
// companion table derived from its rows and named after it
// (companionPath). Lake decides when companions are written (with their
// data file, in its commit), superseded (with it), added to files that
// lack one, and checked; a Companion, carried by Options.Companions,
// decides what they hold. Package lake/runcounts implements the run_counts
// companion. A lake opened without the companion of a table refuses to
// write that table (ErrNoCompanion), so no data file lacks its companion.

// Companion computes the companion files of one derived table.
type Companion interface {
	// Table is the derived table the companion files belong to.
	Table() string
	// Start begins the companion of a data file being written, before its
	// first row.
	Start(d *DataFile) (FileCompanion, error)
	// Rebuild writes the companion of a committed data file that has none
	// (a file written before the companion table existed).
	Rebuild(d *DataFile) error
	// Feed returns an empty RowFeed for Check.
	Feed() RowFeed
	// Check compares the companion file of a committed data file with the
	// data file's rows; fed, when not nil, was fed them already (lake
	// check reads a file's rows once for its key index and its companion).
	Check(root string, data, companion FileEntry, fed RowFeed) (Problem, bool)
}

// RowFeed takes the rows of one data file, batch by batch, in order
// ([]T, T the row type of its table).
type RowFeed interface {
	Add(rows any)
}

// FileCompanion is the companion of one data file being written: it is
// fed the file's rows in the file's encoding goroutine.
type FileCompanion interface {
	RowFeed
	// Finish writes and ends the companion file once every row is added,
	// in the encoding goroutine, while the data file is not yet finished.
	Finish() error
	// Close waits until the companion file is written and records it in
	// the transaction (after the data file).
	Close() error
}

// ErrNoCompanion means a table with a companion table is written through
// a lake opened without that companion (Options.Companions).
var ErrNoCompanion = errors.New("lake opened without the companion of the table")

// companionFor returns the companion of table t, nil if t has no companion
// table, or ErrNoCompanion.
func (l *Lake) companionFor(t Table) (Companion, error) {
	if t.companion == "" {
		return nil, nil
	}
	for _, c := range l.opts.Companions {
		if c.Table() == t.companion {
			return c, nil
		}
	}
	return nil, fmt.Errorf("write %s: %w: its %s files would be missing (open the lake with runcounts.With)", t.Name, ErrNoCompanion, t.companion)
}

// companionPath returns the companion of the data file rel of a table with
// a companion table: run_counts/<partition>/part-<uuid>.counts.parquet for
// verdicts/<partition>/part-<uuid>.parquet (a name of its own, so that a
// key index in _keys/ never collides with the data file's).
func companionPath(rel string) (string, bool) {
	for _, t := range Tables() {
		if t.companion != "" && strings.HasPrefix(rel, t.Name+"/") {
			return t.companion + strings.TrimSuffix(strings.TrimPrefix(rel, t.Name), ".parquet") + ".counts.parquet", true
		}
	}
	return "", false
}

// DataFile is a data file as its companion sees it: being written, or
// committed without a companion (Rebuild).
type DataFile struct {
	tx        *Tx
	companion Table    // the companion's table
	values    []string // the partition
	rel       string   // relative to the root
	name      string   // where its bytes are now
	inMemory  int      // WriterOptions.CountsInMemory
	finish    func() error
	finished  bool
}

// Path returns the data file's path relative to the lake root.
func (d *DataFile) Path() string { return d.rel }

// Partition returns the data file's partition values.
func (d *DataFile) Partition() []string { return d.values }

// CountsInMemory is the writer's WriterOptions.CountsInMemory (0 for a
// committed file, or unbounded).
func (d *DataFile) CountsInMemory() int { return d.inMemory }

// SpillDir is where the companion may put spill files (unlinked at once).
func (d *DataFile) SpillDir() string { return d.tx.spillDir() }

// OnRollback registers fn to run when the transaction rolls back.
func (d *DataFile) OnRollback(fn func()) { d.tx.abort = append(d.tx.abort, fn) }

// ReadBack finishes a data file being written (from the encoding
// goroutine, in FileCompanion.Finish) and returns where its bytes are, to
// be read again.
func (d *DataFile) ReadBack() (string, error) {
	if d.finish != nil && !d.finished {
		d.finished = true
		if err := d.finish(); err != nil {
			return "", err
		}
	}
	return d.name, nil
}

// CompanionFile writes the companion file of a data file: rows of type T
// (the companion table's), committed with the data file.
type CompanionFile[T any] struct {
	fw   *fileWriter[T]
	made int // batches batch made
}

// CreateCompanion starts the companion file of d.
func CreateCompanion[T any](d *DataFile) (*CompanionFile[T], error) {
	if err := checkRowType[T](d.companion); err != nil {
		return nil, err
	}
	rel, ok := companionPath(d.rel)
	if !ok {
		return nil, fmt.Errorf("%s has no companion", d.rel)
	}
	fw, err := newFileWriterAt[T](d.tx, d.companion, d.values, rel, 0, 0)
	if err != nil {
		return nil, err
	}
	return &CompanionFile[T]{fw: fw}, nil
}

// Write hands one batch of rows, which fill appends to an empty slice, to
// the file's encoder. A companion's rows come all at once, at its data
// file's end: two batches are reused, fill waiting for the encoder to
// hand one back, so they are not fresh memory at an ingest's peak.
func (c *CompanionFile[T]) Write(fill func(rows []T) []T) error {
	var b *rowBatch[T]
	if c.made < companionBatches {
		c.made++
		b = newRowBatch[T](companionBatchRows)
	} else {
		b = <-c.fw.free // holds more than companionBatches: the encoder never drops one
	}
	b.rows = fill(b.rows)
	return c.fw.write(b)
}

// companionBatches is how many batches a companion file uses: one filled
// while the encoder writes the other; companionBatchRows their capacity.
const (
	companionBatches   = 2
	companionBatchRows = 2048
)

// End tells the file's encoder that no more rows come.
func (c *CompanionFile[T]) End() { c.fw.end() }

// Close waits until the file is written and records it in the
// transaction.
func (c *CompanionFile[T]) Close() error { return c.fw.close() }

// addMissingCompanions gives every data file of table t among files that
// has no companion in the transaction's base one (upgrade of a lake
// written before the companion table). It returns how many it wrote.
func (tx *Tx) addMissingCompanions(t Table, files []FileEntry) (int, error) {
	c, err := tx.l.companionFor(t)
	if c == nil || err != nil {
		return 0, err
	}
	ct, err := LookupTable(t.companion)
	if err != nil {
		return 0, err
	}
	have := map[string]bool{}
	for _, f := range tx.base.Files {
		if f.Table == ct.Name {
			have[f.Path] = true
		}
	}
	n := 0
	for _, f := range files {
		rel, ok := companionPath(f.Path)
		if f.Table != t.Name || !ok || have[rel] || tx.removed[f.Path] {
			continue
		}
		d := &DataFile{tx: tx, companion: ct, values: f.Partition, rel: f.Path, name: filepath.Join(tx.l.root, filepath.FromSlash(f.Path))}
		if err := c.Rebuild(d); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// RunCountsComplete reports whether every verdicts data file of the
// snapshot has its run_counts companion and every companion its data
// file: then the run_counts rows count exactly the verdicts.
func (s Snapshot) RunCountsComplete() bool { return s.m.RunCountsComplete() }

// RunCountsComplete is Snapshot.RunCountsComplete for a manifest read by
// another engine.
func (m Manifest) RunCountsComplete() bool {
	data, counts := map[string]bool{}, map[string]bool{}
	for _, f := range m.Files {
		switch f.Table {
		case Verdicts:
			p, _ := companionPath(f.Path)
			data[p] = true
		case RunCounts:
			counts[f.Path] = true
		}
	}
	return maps.Equal(data, counts)
}
