package lake

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// Outcome is what happened to one row given to Writer.Add.
type Outcome int

// Outcomes of Writer.Add.
const (
	Added     Outcome = iota // new key, written
	Unchanged                // same key and content already in the lake
	Replaced                 // same key, new content, --replace given
	Conflict                 // same key, different content; see ConflictError
)

// ConflictError says that a row's natural key is taken by a different row
// in the lake; Existing names where that row came from ("file:line").
type ConflictError struct {
	Key      string
	Existing string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("key %s already in the lake with different content (from %s); use --replace to overwrite", e.Key, e.Existing)
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Stats counts the outcomes of a Writer.
type Stats struct {
	Added     int64 `json:"added"`
	Unchanged int64 `json:"unchanged"`
	Replaced  int64 `json:"replaced"`
	Rejected  int64 `json:"rejected"`
}

// WriterOptions configure a Writer.
type WriterOptions struct {
	Replace  bool // overwrite rows whose key exists with different content
	SizeHint int  // expected number of rows, to size the dedupe map; 0 is fine
	// BatchRows is how many rows of a partition are buffered before they
	// go to its file's encoder; 0 means 2048. Up to four batches of a
	// partition are alive at once (buffered, queued, being encoded), so
	// wide rows want fewer.
	BatchRows int
	// KeysInMemory, when > 0, bounds the in-batch keys (32 bytes a row,
	// kept to find duplicates at Close) held in memory: every KeysInMemory
	// keys go to disk as a sorted run, merged at Close (keyindex.Spill). 0 keeps
	// them all in memory.
	KeysInMemory int
	// RowGroupRows, when > 0 and below the lake's, cuts row groups at this
	// many rows: an open row group's pages, page statistics and
	// dictionaries are held in memory until it ends.
	RowGroupRows int
	// CountsInMemory, when > 0, bounds the run counts a verdicts file
	// holds until it ends (about 100 bytes an episode): every
	// CountsInMemory of them go to disk (package runcounts). For input whose
	// episodes come together (all runs of one in a row); otherwise the
	// file is counted again once written.
	CountsInMemory int
	// FileRows, when > 0 and below the lake's, rolls to a new data file
	// after this many rows: an open file holds its page index and its row
	// groups' metadata (a few bytes a row) until it ends.
	FileRows int
	// DictionaryBytes, when > 0, caps each dictionary-encoded column's
	// dictionary within a row group: past it, the column's later pages
	// of the row group are PLAIN (parquet-go's DictionaryMaxBytes). For
	// input with a column of many distinct values, such as an Inspect
	// log's _src_file naming each sample; 0: no cap.
	DictionaryBytes int
}

// Writer appends rows of type T to one table inside a transaction, deduping
// by natural key against the lake and within the batch. It streams: each
// added row is copied into its partition's batch, and full batches go to
// that partition's file writer, as they arrive. Add copies the row and the
// values its pointer fields point to: the caller may reuse both once Add
// returns. Against the lake it reads only the key index of each partition
// it touches (package keyindex), so memory and time grow with the rows appended
// plus 32 bytes per stored row of those partitions.
type Writer[T any] struct {
	tx      *Tx
	table   Table
	rt      *rowType
	opts    WriterOptions
	parts   map[string]*partState[T] // by partition values joined with NUL
	list    []*partState[T]          // the same, in first-use order (for small counts a scan beats the map)
	last    *partState[T]            // the partition of the previous row
	keys    *keyindex.Batch          // every key added, for in-batch duplicates
	stats   Stats
	buf     int
	scratch []byte
	probes  []probe[T] // rows given to Probe, not yet to Add
	nprobe  int        // probes[nprobe] is the next row Add expects
}

type partState[T any] struct {
	values   []string
	index    *partIndex
	replaced map[uint32]map[[2]uint64]bool // index file -> keys to drop
	origins  map[uint32][]string           // index file -> "file:line" per row, loaded on a conflict
	fw       *fileWriter[T]
	pending  *rowBatch[T] // rows not yet handed to fw
}

// NewWriter starts writing table in tx; T must be the table's row type.
func NewWriter[T any](tx *Tx, table string, opts WriterOptions) (*Writer[T], error) {
	t, err := tableFor[T](table)
	if err != nil {
		return nil, err
	}
	if _, err := tx.l.companionFor(t); err != nil {
		return nil, err
	}
	keys := keyindex.NewBatch(tx.spillDir(), opts.KeysInMemory, opts.SizeHint)
	tx.abort = append(tx.abort, keys.Close)
	return &Writer[T]{tx: tx, table: t, rt: t.rows, opts: opts, keys: keys, buf: cmp.Or(opts.BatchRows, 2048)}, nil
}

// Add offers one row. It returns the outcome and, for Conflict, a
// *ConflictError. The caller validates rows before Add.
func (w *Writer[T]) Add(row *T) (Outcome, error) {
	p := unsafe.Pointer(row)
	key, ps, maybe, err := w.probed(p)
	if err != nil {
		return Conflict, err
	}
	if err := w.see(p, key); err != nil {
		return Conflict, err
	}
	var old keyindex.Located
	ok := false
	if maybe {
		old, ok = ps.index.Find(key)
	}
	if !ok {
		w.stats.Added++
		return Added, w.push(ps, p, key)
	}
	var h uint64
	h, w.scratch = w.rt.contentHash(w.scratch, p)
	if old.Content == h {
		w.stats.Unchanged++
		return Unchanged, nil
	}
	if !w.opts.Replace {
		w.stats.Rejected++
		where, err := w.origin(ps, &old)
		if err != nil {
			return Conflict, err
		}
		return Conflict, &ConflictError{Key: w.rt.keyString(p), Existing: where}
	}
	if ps.replaced[old.File] == nil {
		ps.replaced[old.File] = map[[2]uint64]bool{}
	}
	ps.replaced[old.File][key] = true
	w.stats.Replaced++
	return Replaced, w.push(ps, p, key)
}

// origin names where a stored row came from, reading the sources of its
// file once per file (conflicts are rare and end the batch).
func (w *Writer[T]) origin(ps *partState[T], e *keyindex.Located) (string, error) {
	rows, ok := ps.origins[e.File]
	if !ok {
		var err error
		if rows, err = w.table.ops.origins(w.tx.l.root, w.table, ps.index.files[e.File]); err != nil {
			return "", err
		}
		if ps.origins == nil {
			ps.origins = map[uint32][]string{}
		}
		ps.origins[e.File] = rows
	}
	if int(e.Row) >= len(rows) {
		return "", fmt.Errorf("key index of %s names row %d of %d (run `trustlake lake check`)", ps.index.files[e.File].Path, e.Row, len(rows))
	}
	return rows[e.Row], nil
}

// push appends the row at p, column by column, to its partition's batch.
func (w *Writer[T]) push(ps *partState[T], p unsafe.Pointer, key [2]uint64) error {
	if ps.pending == nil {
		ps.pending = newRowBatch[T](w.buf)
	}
	ps.pending.add(w.rt, (*T)(p), key)
	if len(ps.pending.rows) >= w.buf {
		return w.flush(ps)
	}
	return nil
}

func (w *Writer[T]) flush(ps *partState[T]) error {
	if ps.pending == nil || len(ps.pending.rows) == 0 {
		return nil
	}
	fileRows := w.tx.l.opts.FileRows
	if w.opts.FileRows > 0 {
		fileRows = min(fileRows, w.opts.FileRows)
	}
	if ps.fw != nil && ps.fw.rows >= int64(fileRows) {
		if err := ps.fw.close(); err != nil {
			return err
		}
		ps.fw = nil
	}
	if ps.fw == nil {
		fw, err := newFileWriter[T](w.tx, w.table, ps.values, w.opts.DictionaryBytes, w.opts.RowGroupRows, w.opts.CountsInMemory)
		if err != nil {
			return err
		}
		ps.fw = fw
	}
	if err := ps.fw.write(ps.pending); err != nil {
		return err
	}
	ps.pending = ps.fw.batch(w.buf)
	return nil
}

// part returns the state of one partition, loading its key index on first
// use. Rows of one partition usually come in runs, so the previous row's
// partition is tried first, then (when there are few) every partition in
// turn; the map costs one joined key.
func (w *Writer[T]) part(p unsafe.Pointer) (*partState[T], error) {
	if w.last != nil && w.rt.inPartition(p, w.last.values) {
		return w.last, nil
	}
	if len(w.list) <= 32 {
		for _, ps := range w.list {
			if w.rt.inPartition(p, ps.values) {
				w.last = ps
				return ps, nil
			}
		}
	}
	values := w.rt.partition(p)
	id := strings.Join(values, "\x00")
	if ps, ok := w.parts[id]; ok {
		w.last = ps
		return ps, nil
	}
	if _, err := PartitionDir(w.table, values); err != nil {
		return nil, err
	}
	px, err := loadPartIndex(w.tx, w.table, w.tx.partitionFiles(w.table, values))
	if err != nil {
		return nil, err
	}
	w.tx.abort = append(w.tx.abort, px.Release) // Close releases it too
	ps := &partState[T]{values: values, index: px, replaced: map[uint32]map[[2]uint64]bool{}}
	if w.parts == nil {
		w.parts = map[string]*partState[T]{}
	}
	w.parts[id], w.last = ps, ps
	w.list = append(w.list, ps)
	return ps, nil
}

// Close flushes every partition, rewrites files that lost replaced rows,
// and returns the counts. The transaction still has to be committed, after
// checking Duplicates.
func (w *Writer[T]) Close() (Stats, error) {
	defer func() {
		for _, ps := range w.list {
			ps.index.Release()
		}
	}()
	w.keys.Search()                          // while the files finish
	ids := slices.Sorted(maps.Keys(w.parts)) // manifest order stays stable
	for _, id := range ids {
		ps := w.parts[id]
		if err := w.flush(ps); err != nil {
			return w.stats, err
		}
		for _, fi := range slices.Sorted(maps.Keys(ps.replaced)) {
			if err := w.rewriteWithout(ps, ps.index.files[fi], ps.replaced[fi]); err != nil {
				return w.stats, err
			}
		}
		if ps.fw != nil {
			ps.fw.end() // the files finish side by side
		}
	}
	for _, id := range ids {
		ps := w.parts[id]
		if ps.fw != nil {
			if err := ps.fw.close(); err != nil {
				return w.stats, err
			}
			ps.fw = nil
		}
		// Upgrade: old files of the partition get their companions.
		if _, err := w.tx.addMissingCompanions(w.table, w.tx.partitionFiles(w.table, ps.values)); err != nil {
			return w.stats, err
		}
	}
	return w.stats, w.keys.Finish()
}

// rewriteWithout copies a committed file's rows, minus keys, into the
// partition's current output, and marks the old file superseded.
func (w *Writer[T]) rewriteWithout(ps *partState[T], f FileEntry, keys map[[2]uint64]bool) error {
	var scratch []byte
	err := readRows[T](w.tx.l.root, w.table, f, func(rows []T) error {
		for i := range rows {
			var k [2]uint64
			k, scratch = w.rt.keyHash(scratch, unsafe.Pointer(&rows[i]))
			if !keys[k] {
				if err := w.push(ps, unsafe.Pointer(&rows[i]), k); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		err = w.flush(ps)
	}
	if err != nil {
		return err
	}
	w.tx.remove(f.Path)
	return nil
}

// probe is what Probe found out about one row ahead of its Add.
type probe[T any] struct {
	row   unsafe.Pointer
	key   [2]uint64
	ps    *partState[T]
	maybe bool // the partition's filter holds the key: look it up
}

// Probe prepares the Add of rows, which the caller is about to add in this
// order: it hashes their keys, finds their partitions, and asks each
// partition's filter about all of them in one loop, so the filter reads
// (mostly cache misses, one per row, for rows of many partitions) overlap
// instead of waiting one by one. Calling it is optional; an Add of another
// row than the next probed one drops what Probe prepared. rows must stay
// in place until added.
func (w *Writer[T]) Probe(rows []T) {
	w.probes, w.nprobe = w.probes[:0], 0
	for i := range rows {
		p := unsafe.Pointer(&rows[i])
		var key [2]uint64
		key, w.scratch = w.rt.keyHash(w.scratch, p)
		ps, err := w.part(p)
		if err != nil {
			break // Add meets the error again
		}
		w.probes = append(w.probes, probe[T]{row: p, key: key, ps: ps})
	}
	for i := range w.probes {
		pr := &w.probes[i]
		pr.maybe = pr.ps.index.MayHold(pr.key)
	}
}

// probed returns the key, the partition and whether the partition may
// hold the key of the row at p, from Probe or computed now.
func (w *Writer[T]) probed(p unsafe.Pointer) ([2]uint64, *partState[T], bool, error) {
	if w.nprobe < len(w.probes) {
		if pr := w.probes[w.nprobe]; pr.row == p {
			w.nprobe++
			return pr.key, pr.ps, pr.maybe, nil
		}
		w.probes, w.nprobe = w.probes[:0], 0
	}
	var key [2]uint64
	key, w.scratch = w.rt.keyHash(w.scratch, p)
	ps, err := w.part(p)
	if err != nil {
		return key, nil, false, err
	}
	return key, ps, ps.index.MayHold(key), nil
}
