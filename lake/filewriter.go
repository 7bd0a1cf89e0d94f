package lake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"
)

// zstdFastest compresses every data file. One codec for all of them: its
// few encoders are shared, so memory does not grow with the number of
// files written at once.
var zstdFastest = newPageCodec()

// fileWriter writes one Parquet data file of a table and its key index.
// Rows arrive column by column (colBatch); each column is handed to its
// Parquet column writer, and the rows' hashes to the key index, in a
// goroutine of the file's own.
type fileWriter struct {
	tx     *Tx
	table  Table
	values []string
	rel    string // final path relative to root
	tmp    string // where it is written until Commit
	f      *os.File
	h      hashWriter
	w      *pqFile
	keys   *keysWriter
	rows   int64
	ch     chan *colBatch // batches for the encoding goroutine
	free   chan *colBatch // batches the encoder is done with, for reuse
	done   chan error     // the encoding goroutine's result
	closed bool           // ch is closed: no more rows
	// groupRows, when > 0, cuts row groups at this many rows (below the
	// lake's RowGroupRows; WriterOptions.RowGroupRows).
	groupRows int64

	keysBytes int64  // size of the finished key index
	keysSum   []byte // its sha256
	keysDone  bool   // the key index file is closed

	// A verdicts file counts its runs as it encodes them and writes them
	// to its run_counts companion when it finishes (counts.go).
	counts    *runCounter
	companion *fileWriter
	made      int // batches reusedBatch made
}

type hashWriter struct {
	w io.Writer
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
	n int64
}

func (hw *hashWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	hw.h.Write(p[:n])
	hw.n += int64(n)
	return n, err
}

func newFileWriter(tx *Tx, t Table, values []string) (*fileWriter, error) {
	return newCappedFileWriter(tx, t, values, 0)
}

// newCappedFileWriter is newFileWriter with the dictionaries of its data
// file capped at dictBytes (0: no cap; pqdict.go).
func newCappedFileWriter(tx *Tx, t Table, values []string, dictBytes int) (*fileWriter, error) {
	dir, err := PartitionDir(t, values)
	if err != nil {
		return nil, err
	}
	return newFileWriterAt(tx, t, values, path.Join(dir, "part-"+uuid.NewString()+".parquet"), dictBytes)
}

// newFileWriterAt is newFileWriter with the file's final path (relative to
// the root) given: a run_counts companion is named after its data file.
func newFileWriterAt(tx *Tx, t Table, values []string, rel string, dictBytes int) (*fileWriter, error) {
	// The file is written in _staging/ and renamed into its partition
	// folder (created then) at Commit: a table folder never holds a file
	// being written.
	for _, d := range []string{keysDir, stagingDir} {
		if err := os.MkdirAll(filepath.Join(tx.l.root, d), 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", d, err)
		}
	}
	final := filepath.Join(tx.l.root, filepath.FromSlash(rel))
	tmp := filepath.Join(tx.l.root, stagingDir, path.Base(rel)+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create data file: %w", err)
	}
	tx.stage(tmp, final)
	fw := &fileWriter{tx: tx, table: t, values: values, rel: rel, tmp: tmp, f: f, keysDone: t.Derived}
	if !t.Derived { // a derived table is never deduped: no key index
		keysFinal := filepath.Join(tx.l.root, filepath.FromSlash(keysPath(rel)))
		tx.stage(keysFinal+".tmp", keysFinal)
		if fw.keys, err = newKeysWriter(keysFinal + ".tmp"); err != nil {
			f.Close()
			return nil, err
		}
	}
	fw.h = hashWriter{w: f, h: sha256.New()}
	fw.w = newPQFile(&fw.h, t.cols.pq(), zstdFastest, dictBytes)
	fw.ch, fw.free, fw.done = make(chan *colBatch, 2), make(chan *colBatch, 4), make(chan error, 1)
	go fw.encode()
	tx.abort = append(tx.abort, func() {
		if fw.done != nil {
			fw.end()
			<-fw.done
			fw.f.Close()
			if !fw.keysDone {
				fw.keys.f.Close()
			}
		}
	})
	if t.counted {
		// After the abort above: on a rollback the data file's goroutine
		// has stopped feeding its companion before the companion's abort.
		fw.counts = newRunCounter(t.cols)
		ct, err := LookupTable(RunCounts)
		if err != nil {
			return nil, err
		}
		if fw.companion, err = newFileWriterAt(tx, ct, values, countsPath(rel), 0); err != nil {
			return nil, err
		}
	}
	return fw, nil
}

// encode runs in its own goroutine: Parquet encoding, compression and key
// hashing of one file overlap with decoding and dedupe of the next rows.
func (fw *fileWriter) encode() {
	var err error
	cl := fw.table.cols
	var scratch []byte
	var plan []hashStep
	var ents []byte
	g := rowGroup{flushed: fw.w.size()}
	for b := range fw.ch {
		if err == nil {
			err = fw.writeBatch(b, &g)
			if fw.keys != nil {
				plan = cl.hashPlan(b, fw.values, plan)
			}
			if fw.keys != nil { // the batch's entries go to the index in one write
				ents = slices.Grow(ents[:0], keyEntryBytes*b.n)[:keyEntryBytes*b.n]
				for r := 0; r < b.n; r++ {
					e := keyEntry{key: b.keys[r]}
					e.content, scratch = contentHash(plan, r, scratch)
					putKeyEntry(ents[keyEntryBytes*r:], e)
				}
				fw.keys.bw.Write(ents)
			}
			if fw.counts != nil {
				fw.counts.addBatch(b)
			}
		}
		// The writer has copied the values: hand the batch back for reuse
		// (emptied, so it pins no strings), or drop it when enough wait.
		b.reset()
		select {
		case fw.free <- b:
		default:
		}
	}
	// The counts are complete: the companion encodes them while this
	// file finishes (its last row group, key index and fsync).
	finished := false
	if fw.companion != nil {
		if err == nil {
			finished, err = fw.writeCounts()
		}
		fw.companion.end()
	}
	if err == nil && !finished {
		err = fw.finish()
	}
	fw.done <- err
}

// finish completes the data file and its key index and fsyncs both, in
// the encoding goroutine: the files of a batch finish side by side.
func (fw *fileWriter) finish() error {
	if err := fw.w.close(); err != nil {
		return fmt.Errorf("finish %s: %w", fw.rel, err)
	}
	if fw.keys != nil {
		var err error
		if fw.keysBytes, fw.keysSum, err = fw.keys.finish(); err != nil {
			return fmt.Errorf("write key index of %s: %w", fw.rel, err)
		}
		fw.keysDone = true
	}
	if err := fw.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", fw.rel, err)
	}
	return nil
}

// rowGroup is the state of the row group being written.
type rowGroup struct {
	rows    int64
	flushed int64 // the file's size (bytes written plus, an upper bound, those buffered) at the last cut
}

// writeBatch writes the batch to the data file (writeChunks).
func (fw *fileWriter) writeBatch(b *colBatch, g *rowGroup) error {
	maxRows, limit := int64(fw.tx.l.opts.RowGroupRows), fw.tx.l.opts.RowGroupBytes
	if fw.groupRows > 0 {
		maxRows = min(maxRows, fw.groupRows)
	}
	if err := writeChunks(fw.w, b, g, maxRows, limit); err != nil {
		return fmt.Errorf("write %s: %w", fw.rel, err)
	}
	return nil
}

// chunkWriter is what writeChunks writes rows to: a data file (pqFile;
// the tests also pass parquet-go's writer).
type chunkWriter interface {
	write(b *colBatch, i, j int) error // rows [i, j) of b
	size() int64                       // bytes written plus, an upper bound, those buffered
	flush() error                      // end the row group
}

// writeChunks writes the batch in chunks of rowGroupCheck rows, cutting
// the row group after a chunk once it holds maxRows rows or its buffered
// bytes pass limit: wide rows (message text, raw judge replies) are then
// bounded by size, whatever the row count; narrow tables keep maxRows
// rows per group.
func writeChunks(w chunkWriter, b *colBatch, g *rowGroup, maxRows, limit int64) error {
	for i := 0; i < b.n; {
		j := min(b.n, i+rowGroupCheck, i+int(maxRows-g.rows))
		if err := w.write(b, i, j); err != nil {
			return err
		}
		g.rows += int64(j - i)
		i = j
		if g.rows >= maxRows || w.size()-g.flushed > limit {
			if err := w.flush(); err != nil {
				return err
			}
			g.rows, g.flushed = 0, w.size()
		}
	}
	return nil
}

// rowGroupCheck is how many rows are written between two looks at the
// buffered size (a look sums the columns' buffers: cheap, not free).
const rowGroupCheck = 512

// pageBytes is the uncompressed size of a data page (parquet-go's default
// is 256 KiB). Each column of each open file fills one page before it is
// compressed, so this times the columns is memory every ingest holds once
// its files have that many bytes.
const pageBytes = 64 << 10

// writerOptions are the options with which parquet-go would write a data
// file with the same bytes as pqFile (the template of newPQMeta; the
// reference of TestPQFileMatchesParquetGo), schema first; dictBytes > 0
// caps its dictionaries.
func writerOptions(s *parquet.Schema, rowGroupRows, dictBytes int) []parquet.WriterOption {
	o := []parquet.WriterOption{
		s,
		parquet.Compression(zstdFastest),
		parquet.MaxRowsPerRowGroup(int64(rowGroupRows)),
		parquet.PageBufferSize(pageBytes),
		parquet.CreatedBy("trustlake", "1", ""),
		parquet.WriteBufferSize(256 << 10),
		// Timestamps, line numbers and run numbers mostly step by a little:
		// zstd left plain timestamps as they were (most of a verdicts file).
		parquet.DefaultEncodingFor(parquet.Int64, &parquet.DeltaBinaryPacked),
		// No statistics in each page's header: the column index holds the
		// same bounds per page (and the row group its own), and computing
		// them twice was most of the cost of a page besides compression.
		parquet.DataPageStatistics(false),
	}
	if dictBytes > 0 {
		o = append(o, parquet.DictionaryMaxBytes(int64(dictBytes)))
	}
	return o
}

// write hands a batch to the encoding goroutine; the caller must not touch
// it again (it may come back from batch).
func (fw *fileWriter) write(b *colBatch) error {
	fw.rows += int64(b.n)
	fw.ch <- b
	return nil
}

// end tells the encoding goroutine that no more rows come: it finishes
// the file. Writer.Close ends every file before waiting for the first.
func (fw *fileWriter) end() {
	if !fw.closed {
		fw.closed = true
		close(fw.ch)
	}
}

// close ends the file, waits until it and its key index are finished and
// fsynced, and records both in the transaction.
func (fw *fileWriter) close() error {
	fw.end()
	err := <-fw.done
	fw.done = nil // finished: nothing left for an abort
	if err != nil {
		fw.f.Close()
		if !fw.keysDone {
			fw.keys.f.Close()
		}
		return err
	}
	if err := fw.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", fw.rel, err)
	}
	e := FileEntry{
		Table:     fw.table.Name,
		Path:      fw.rel,
		Partition: fw.values,
		Rows:      fw.rows,
		Bytes:     fw.h.n,
		SHA256:    hex.EncodeToString(fw.h.h.Sum(nil)),
		Committed: time.Now().UTC(),
	}
	if fw.keys != nil {
		e.Keys, e.KeysBytes, e.KeysSHA256 = keysPath(fw.rel), fw.keysBytes, hex.EncodeToString(fw.keysSum)
	}
	fw.tx.added = append(fw.tx.added, e)
	companion := fw.companion
	// The transaction's abort list keeps fw: let go of its buffers (a
	// writer that rolls to new files would otherwise hold every one).
	fw.w, fw.keys, fw.free, fw.counts, fw.companion = nil, nil, nil, nil, nil
	if companion != nil {
		return companion.close()
	}
	return nil
}

// batch returns an empty batch for the next rows, reusing one the encoder
// is done with when there is one.
func (fw *fileWriter) batch(capacity int) *colBatch {
	select {
	case b := <-fw.free:
		return b
	default:
		return fw.table.cols.newBatch(capacity)
	}
}
