package lake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// fileWriter writes one Parquet data file of a table, with rows of type T,
// and its key index. Batches of rows go to a goroutine of the file's own,
// which writes them through parquet-go's GenericWriter and hashes them for
// the key index: the files of a batch are encoded and compressed side by
// side, while the caller decodes and dedupes the next rows.
type fileWriter[T any] struct {
	tx     *Tx
	table  Table
	values []string
	rel    string // final path relative to root
	tmp    string // where it is written until Commit
	f      *os.File
	h      keyindex.HashWriter
	w      *parquet.GenericWriter[T]
	shred  *shredder // nil: rows go through w.Write
	keys   *keyindex.Writer
	rows   int64
	ch     chan *rowBatch[T] // batches for the encoding goroutine
	free   chan *rowBatch[T] // batches the encoder is done with, for reuse
	done   chan error        // the encoding goroutine's result
	closed bool              // ch is closed: no more rows
	// groupRows is the row count at which a row group is cut: the lake's
	// RowGroupRows, or a Writer's lower WriterOptions.RowGroupRows.
	groupRows int64

	keysBytes int64  // size of the finished key index
	keysSum   []byte // its sha256
	keysDone  bool   // the key index file is closed

	// A data file of a table with a companion table feeds its rows to its
	// companion as it encodes them (companion.go).
	companion FileCompanion
	data      *DataFile // what the companion sees of the file
}

// newFileWriter starts a data file in the partition values of table t,
// with its dictionaries capped at dictBytes (0: no cap) and its row groups
// at groupRows rows (0: the lake's RowGroupRows), and its companion if
// the table has one, given the writer's WriterOptions.CountsInMemory.
func newFileWriter[T any](tx *Tx, t Table, values []string, dictBytes, groupRows, inMemory int) (*fileWriter[T], error) {
	c, err := tx.l.companionFor(t)
	if err != nil {
		return nil, err
	}
	dir, err := PartitionDir(t, values)
	if err != nil {
		return nil, err
	}
	fw, err := newFileWriterAt[T](tx, t, values, path.Join(dir, "part-"+uuid.NewString()+".parquet"), dictBytes, groupRows)
	if err != nil || c == nil {
		return fw, err
	}
	// After the file's abort: on a rollback the data file's goroutine has
	// stopped feeding its companion before the companion's abort.
	ct, err := LookupTable(t.companion)
	if err != nil {
		return nil, err
	}
	fw.data = &DataFile{tx: tx, companion: ct, values: values, rel: fw.rel, name: fw.tmp, inMemory: inMemory, finish: fw.finish}
	if fw.companion, err = c.Start(fw.data); err != nil {
		return nil, err
	}
	return fw, nil
}

// newFileWriterAt starts a file at its final path (relative to the root)
// with no companion: a companion file is named after its data file.
func newFileWriterAt[T any](tx *Tx, t Table, values []string, rel string, dictBytes, groupRows int) (*fileWriter[T], error) {
	// The file is written in _staging/ and renamed into its partition
	// folder (created then) at Commit: a table folder never holds a file
	// being written.
	for _, d := range []string{keyindex.Dir, stagingDir} {
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
	fw := &fileWriter[T]{tx: tx, table: t, values: values, rel: rel, tmp: tmp, f: f, keysDone: t.Derived}
	fw.groupRows = int64(tx.l.opts.RowGroupRows)
	if groupRows > 0 {
		fw.groupRows = min(fw.groupRows, int64(groupRows))
	}
	if !t.Derived { // a derived table is never deduped: no key index
		keysFinal := filepath.Join(tx.l.root, filepath.FromSlash(keyindex.Path(rel)))
		tx.stage(keysFinal+".tmp", keysFinal)
		if fw.keys, err = keyindex.Create(keysFinal + ".tmp"); err != nil {
			f.Close()
			return nil, err
		}
	}
	fw.h = keyindex.HashWriter{W: f, H: sha256.New()}
	fw.w = parquet.NewGenericWriter[T](&fw.h, tx.l.writerOptions(t, dictBytes)...)
	fw.shred = newShredder(t.rows, t.schema)
	fw.ch, fw.free, fw.done = make(chan *rowBatch[T], 2), make(chan *rowBatch[T], 4), make(chan error, 1)
	go fw.encode()
	tx.abort = append(tx.abort, func() {
		if fw.done != nil {
			fw.end()
			<-fw.done
			fw.abandon()
		}
	})
	return fw, nil
}

// writerOptions are the options of parquet-go's writer for the data files
// of table t; dictBytes > 0 caps each dictionary within a row group.
func (l *Lake) writerOptions(t Table, dictBytes int) []parquet.WriterOption {
	o := []parquet.WriterOption{
		t.schema,
		l.compression,
		parquet.PageBufferSize(pageBytes),
		parquet.WriteBufferSize(256 << 10),
		parquet.CreatedBy("trustlake", "1", ""),
		// Timestamps, line numbers and run numbers mostly step by a little:
		// delta encoding leaves zstd far less to do than plain values.
		parquet.DefaultEncodingFor(parquet.Int64, &parquet.DeltaBinaryPacked),
		// No statistics in each page's header: the column index holds the
		// same bounds per page, and the row group its own.
		parquet.DataPageStatistics(false),
	}
	for _, col := range t.rows.freeText {
		o = append(o, parquet.SkipPageBounds(col))
	}
	if dictBytes > 0 {
		o = append(o, parquet.DictionaryMaxBytes(int64(dictBytes)))
	}
	return o
}

// pageBytes is the buffered size of a data page before it is encoded and
// compressed. Each column of each open file fills one page, so this times
// the columns is memory every ingest holds per open file.
const pageBytes = 64 << 10

// encode runs in its own goroutine: Parquet encoding, compression and key
// hashing of one file overlap with decoding and dedupe of the next rows.
func (fw *fileWriter[T]) encode() {
	var err error
	var scratch, ents []byte
	g := rowGroup{}
	for b := range fw.ch {
		if err == nil {
			err = fw.writeBatch(b, &g, &scratch, &ents)
		}
		// The writer has copied the values: hand the batch back for reuse
		// (emptied, so it pins no strings), or drop it when enough wait.
		b.reset()
		select {
		case fw.free <- b:
		default:
		}
	}
	// The rows are all in: the companion file is encoded while this file
	// finishes (its last row group, key index and fsync), unless the
	// companion read it back.
	if fw.companion != nil && err == nil {
		err = fw.companion.Finish()
	}
	if err == nil && (fw.data == nil || !fw.data.finished) {
		err = fw.finish()
	}
	fw.done <- err
}

// writeBatch writes a batch's rows, and hashes and counts each chunk of
// them right after it is written, while its rows are still in cache; the
// batch's key index entries go to the index in one write.
func (fw *fileWriter[T]) writeBatch(b *rowBatch[T], g *rowGroup, scratch, ents *[]byte) error {
	rt := fw.table.rows
	if fw.keys != nil {
		n := len(b.rows)
		*ents = slices.Grow((*ents)[:0], keyindex.EntryBytes*n)[:keyindex.EntryBytes*n]
	}
	err := fw.writeRows(b.rows, g, func(i, j int) {
		if fw.keys != nil {
			for r := i; r < j; r++ {
				e := keyindex.Entry{Key: b.keys[r]}
				e.Content, *scratch = rt.contentHash(*scratch, unsafe.Pointer(&b.rows[r]))
				keyindex.Put((*ents)[keyindex.EntryBytes*r:], e)
			}
		}
		if fw.companion != nil {
			fw.companion.Add(b.rows[i:j])
		}
	})
	if err == nil && fw.keys != nil {
		fw.keys.Write(*ents)
	}
	return err
}

// finish completes the data file and its key index and fsyncs both, in
// the encoding goroutine: the files of a batch finish side by side.
func (fw *fileWriter[T]) finish() error {
	if err := fw.w.Close(); err != nil {
		return fmt.Errorf("finish %s: %w", fw.rel, err)
	}
	if fw.keys != nil {
		var err error
		if fw.keysBytes, fw.keysSum, err = fw.keys.Finish(); err != nil {
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
	flushed int64 // the writer's Size at the last cut
}

// writeRows writes rows in chunks of rowGroupCheck, cutting the row group
// after a chunk once it holds groupRows rows or its buffered bytes pass
// the lake's RowGroupBytes: wide rows (message text, raw judge replies)
// are then bounded by size, whatever the row count. It calls each with
// the bounds of every chunk once the chunk is written.
func (fw *fileWriter[T]) writeRows(rows []T, g *rowGroup, each func(i, j int)) error {
	limit := fw.tx.l.opts.RowGroupBytes
	for i := 0; i < len(rows); {
		j := min(len(rows), i+rowGroupCheck, i+int(fw.groupRows-g.rows))
		if err := fw.writeChunk(rows[i:j]); err != nil {
			return fmt.Errorf("write %s: %w", fw.rel, err)
		}
		each(i, j)
		g.rows += int64(j - i)
		i = j
		if g.rows >= fw.groupRows || fw.w.Size()-g.flushed > limit {
			if err := fw.w.Flush(); err != nil {
				return fmt.Errorf("write %s: %w", fw.rel, err)
			}
			g.rows, g.flushed = 0, fw.w.Size()
		}
	}
	return nil
}

// writeChunk writes rows into the row group being written.
func (fw *fileWriter[T]) writeChunk(rows []T) error {
	if fw.shred == nil {
		_, err := fw.w.Write(rows)
		return err
	}
	return shredWrite(fw.shred, fw.w.ColumnWriters(), rows)
}

// rowGroupCheck is how many rows are written between two looks at the
// buffered size (a look sums the columns' buffers: cheap, not free).
const rowGroupCheck = 512

// write hands a batch to the encoding goroutine; the caller must not touch
// it again (it may come back from batch).
func (fw *fileWriter[T]) write(b *rowBatch[T]) error {
	fw.rows += int64(len(b.rows))
	fw.ch <- b
	return nil
}

// end tells the encoding goroutine that no more rows come: it finishes
// the file. Writer.Close ends every file before waiting for the first.
func (fw *fileWriter[T]) end() {
	if !fw.closed {
		fw.closed = true
		close(fw.ch)
	}
}

// close ends the file, waits until it and its key index are finished and
// fsynced, and records both in the transaction.
func (fw *fileWriter[T]) close() error {
	fw.end()
	err := <-fw.done
	fw.done = nil // finished: nothing left for an abort
	if err != nil {
		fw.abandon()
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
		Bytes:     fw.h.N,
		SHA256:    hex.EncodeToString(fw.h.H.Sum(nil)),
		Committed: time.Now().UTC(),
	}
	if fw.keys != nil {
		e.Keys, e.KeysBytes, e.KeysSHA256 = keyindex.Path(fw.rel), fw.keysBytes, hex.EncodeToString(fw.keysSum)
	}
	fw.tx.added = append(fw.tx.added, e)
	companion := fw.companion
	// The transaction's abort list keeps fw: let go of its buffers (a
	// writer that rolls to new files would otherwise hold every one).
	fw.w, fw.keys, fw.free, fw.companion, fw.data = nil, nil, nil, nil, nil
	if companion != nil {
		return companion.Close()
	}
	return nil
}

// abandon closes the files of a write that failed or was rolled back.
func (fw *fileWriter[T]) abandon() {
	fw.f.Close()
	if !fw.keysDone {
		fw.keys.Abandon()
	}
}

// batch returns an empty batch for the next rows, reusing one the encoder
// is done with when there is one.
func (fw *fileWriter[T]) batch(capacity int) *rowBatch[T] {
	select {
	case b := <-fw.free:
		return b
	default:
		return newRowBatch[T](capacity)
	}
}
