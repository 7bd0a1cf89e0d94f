package lake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"time"
	"unsafe"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// zstdFastest compresses every data file. One codec for all of them: its
// few encoders are shared, so memory does not grow with the number of
// files written at once.
var zstdFastest = newPageCodec()

// fileWriter writes one Parquet data file of row type T and its key index.
// Rows are encoded, and their keys hashed, in a goroutine of their own.
type fileWriter[T any] struct {
	tx     *Tx
	table  Table
	values []string
	rel    string // final path relative to root
	f      *os.File
	h      hashWriter
	w      *parquet.GenericWriter[T]
	keys   *keysWriter
	rows   int64
	dicts  []int      // columns with dictionary encoding (see dictMaxBytes)
	// groupRows, when > 0, cuts row groups at this many rows (below the
	// lake's RowGroupRows; WriterOptions.RowGroupRows).
	groupRows int64
	grouped   int64 // rows in the current row group, when groupRows > 0
	sinceDict int   // rows since the dictionary columns' pages were ended
	ch     chan []T   // row batches for the encoding goroutine
	free   chan []T   // batches the encoder is done with, for reuse
	done   chan error // the encoding goroutine's result
	closed bool
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

func newFileWriter[T any](tx *Tx, t Table, values []string) (*fileWriter[T], error) {
	dir, err := PartitionDir(t, values)
	if err != nil {
		return nil, err
	}
	// The file is written in _staging/ and renamed into its partition
	// folder (created then) at Commit: a table folder never holds a file
	// being written.
	for _, d := range []string{keysDir, stagingDir} {
		if err := os.MkdirAll(filepath.Join(tx.l.root, d), 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", d, err)
		}
	}
	id := uuid.NewString()
	rel := path.Join(dir, "part-"+id+".parquet")
	final := filepath.Join(tx.l.root, filepath.FromSlash(rel))
	tmp := filepath.Join(tx.l.root, stagingDir, "part-"+id+".parquet.tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create data file: %w", err)
	}
	tx.stage(tmp, final)
	keysFinal := filepath.Join(tx.l.root, filepath.FromSlash(keysPath(rel)))
	tx.stage(keysFinal+".tmp", keysFinal)
	kw, err := newKeysWriter(keysFinal + ".tmp")
	if err != nil {
		f.Close()
		return nil, err
	}
	fw := &fileWriter[T]{tx: tx, table: t, values: values, rel: rel, f: f, keys: kw}
	fw.h = hashWriter{w: f, h: sha256.New()}
	fw.w = parquet.NewGenericWriter[T](&fw.h, writerOptions[T](tx)...)
	fw.dicts = dictColumns(fw.w.Schema())
	fw.ch, fw.free, fw.done = make(chan []T, 2), make(chan []T, 4), make(chan error, 1)
	go fw.encode()
	tx.abort = append(tx.abort, func() {
		if !fw.closed {
			fw.closed = true
			close(fw.ch)
			<-fw.done
			fw.f.Close()
			fw.keys.f.Close()
		}
	})
	return fw, nil
}

// encode runs in its own goroutine: Parquet encoding, compression and key
// hashing of one file overlap with decoding and dedupe of the next rows.
func (fw *fileWriter[T]) encode() {
	var err error
	rt := fw.table.rows
	var scratch []byte
	flushed := fw.w.Size()
	limit := fw.tx.l.opts.RowGroupBytes
	for rows := range fw.ch {
		if err == nil {
			err = fw.writeRows(rows, &flushed, limit)
			for i := range rows {
				var e keyEntry
				p := unsafe.Pointer(&rows[i])
				e.key, scratch = rt.keyHash(scratch, p)
				e.content, scratch = rt.contentHash(scratch, p)
				fw.keys.add(e)
			}
		}
		// The writer has copied the values: hand the batch back for reuse
		// (cleared, so it pins no strings), or drop it when enough wait.
		clear(rows)
		select {
		case fw.free <- rows[:0]:
		default:
		}
	}
	if err == nil {
		if cerr := fw.w.Close(); cerr != nil {
			err = fmt.Errorf("finish %s: %w", fw.rel, cerr)
		}
	}
	fw.done <- err
}

// writeRows encodes rows in chunks of rowGroupCheck, cutting the row group
// after a chunk once its buffered bytes pass limit: wide rows (message
// text, raw judge replies) are then bounded by size, whatever the row
// count; narrow tables keep RowGroupRows rows per group. flushed is the
// writer's Size (bytes written plus, an upper bound, those buffered) at
// the last cut.
func (fw *fileWriter[T]) writeRows(rows []T, flushed *int64, limit int64) error {
	for len(rows) > 0 {
		n := min(len(rows), rowGroupCheck)
		if _, err := fw.w.Write(rows[:n]); err != nil {
			return fmt.Errorf("write %s: %w", fw.rel, err)
		}
		rows = rows[n:]
		fw.grouped += int64(n)
		if fw.sinceDict += n; fw.sinceDict >= dictCheckRows {
			fw.sinceDict = 0
			if err := fw.capDictionaries(); err != nil {
				return err
			}
		}
		if fw.w.Size()-*flushed > limit || fw.groupRows > 0 && fw.grouped >= fw.groupRows {
			fw.grouped = 0
			if err := fw.w.Flush(); err != nil {
				return fmt.Errorf("write %s: %w", fw.rel, err)
			}
			*flushed = fw.w.Size()
		}
	}
	return nil
}

// rowGroupCheck is how many rows are written between two looks at the
// buffered size (a look sums the columns' buffers: cheap, not free).
const rowGroupCheck = 512

// dictMaxBytes caps the dictionary of a dictionary-encoded column within a
// row group: past it, the column's next pages are PLAIN. A column of few
// values (judge, model, role, a whole file's _src_file) never reaches it;
// one of many (an Inspect log's _src_file names each sample's entry) would
// otherwise hold every distinct value, copied twice and hashed, until the
// row group ends: memory growing with the rows, not bounded by bytes.
const dictMaxBytes = 16 << 10

// pageBytes is the uncompressed size of a data page (parquet-go's default
// is 256 KiB). Each column of each open file fills one page before it is
// compressed, so this times the columns is memory every ingest holds once
// its files have that many bytes; 64 KiB pages compress nearly as well.
const pageBytes = 64 << 10

// dictCheckRows is how often capDictionaries runs, in rows: a page of
// dictionary indexes each time (a page header and its statistics, kept in
// the file's page index until the file is closed).
const dictCheckRows = 1024

// writerOptions are the Parquet writer options of every data file of row
// type T. Pages carry no min/max in the file's page index
// (SkipPageBounds): the index of every page of a file is held in memory
// until the file is closed, so it grew with the rows, and DuckDB filters
// on row-group statistics, which are still written.
func writerOptions[T any](tx *Tx) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquet.Compression(zstdFastest),
		parquet.MaxRowsPerRowGroup(int64(tx.l.opts.RowGroupRows)),
		parquet.DictionaryMaxBytes(dictMaxBytes),
		parquet.PageBufferSize(pageBytes),
		parquet.CreatedBy("trustlake", "1", ""),
	}
	for _, path := range parquet.SchemaOf(new(T)).Columns() {
		opts = append(opts, parquet.SkipPageBounds(path...))
	}
	return opts
}

// dictColumns returns the indexes of the dictionary-encoded columns.
func dictColumns(s *parquet.Schema) []int {
	var out []int
	for _, path := range s.Columns() {
		leaf, ok := s.Lookup(path...)
		if ok && leaf.Node.Encoding() != nil && leaf.Node.Encoding().Encoding() == format.RLEDictionary {
			out = append(out, leaf.ColumnIndex)
		}
	}
	return out
}

// capDictionaries ends the current page of each dictionary column, every
// dictCheckRows rows: parquet-go looks at DictionaryMaxBytes only when a
// page ends, and a page of dictionary indexes ends by itself only after
// ~16,000 rows (64 KiB of indexes). A dictionary may pass the cap by
// dictCheckRows values before it is noticed.
func (fw *fileWriter[T]) capDictionaries() error {
	cols := fw.w.ColumnWriters()
	for _, i := range fw.dicts {
		if err := cols[i].Flush(); err != nil {
			return fmt.Errorf("write %s: %w", fw.rel, err)
		}
	}
	return nil
}

// write hands rows to the encoding goroutine; the caller must not touch
// the slice again (it may come back from batch).
func (fw *fileWriter[T]) write(rows []T) error {
	fw.ch <- rows
	fw.rows += int64(len(rows))
	return nil
}

// close finishes the file and its key index, fsyncs both and records them
// in the transaction.
func (fw *fileWriter[T]) close() error {
	fw.closed = true
	close(fw.ch)
	if err := <-fw.done; err != nil {
		fw.f.Close()
		fw.keys.f.Close()
		return err
	}
	kn, ksum, err := fw.keys.finish()
	if err != nil {
		fw.f.Close()
		return fmt.Errorf("write key index of %s: %w", fw.rel, err)
	}
	if err := fw.f.Sync(); err != nil {
		fw.f.Close()
		return fmt.Errorf("sync %s: %w", fw.rel, err)
	}
	if err := fw.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", fw.rel, err)
	}
	fw.tx.added = append(fw.tx.added, FileEntry{
		Table:      fw.table.Name,
		Path:       fw.rel,
		Partition:  fw.values,
		Rows:       fw.rows,
		Bytes:      fw.h.n,
		SHA256:     hex.EncodeToString(fw.h.h.Sum(nil)),
		Committed:  time.Now().UTC(),
		Keys:       keysPath(fw.rel),
		KeysBytes:  kn,
		KeysSHA256: hex.EncodeToString(ksum),
	})
	return nil
}

// batch returns an empty slice for the next rows, reusing one the encoder
// is done with when there is one.
func (fw *fileWriter[T]) batch(capacity int) []T {
	select {
	case b := <-fw.free:
		return b
	default:
		return make([]T, 0, capacity)
	}
}
