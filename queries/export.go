package queries

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// ErrOutDir means the folder of an export's output file is missing.
var ErrOutDir = errors.New("no such output folder")

// ExportFormats lists the formats Export writes.
var ExportFormats = []string{"parquet", "csv", "arrow", "jsonl"}

// Export writes the rows of query to out in format, atomically: a
// temporary file beside out is renamed into place only when complete.
// It returns the number of rows written.
//
// The file gets mode 0644 whatever the format. A folder of out that does not
// exist (or is not a folder) is an error wrapping ErrOutDir; an out inside
// the lake is refused with ErrIntoLake.
func (s *Session) Export(ctx context.Context, query, format, out string) (int64, error) {
	if err := s.checkOutsideLake(out); err != nil {
		return 0, err
	}
	dir := filepath.Dir(out)
	if st, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%w: %s", ErrOutDir, dir)
	} else if err == nil && !st.IsDir() {
		return 0, fmt.Errorf("%w: %s is a file", ErrOutDir, dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("export: create a file in %s: %w", dir, err)
	}
	tmpName := tmp.Name()
	err = tmp.Chmod(0o644) // CreateTemp makes 0600; DuckDB's COPY keeps the mode
	tmp.Close()
	defer os.Remove(tmpName)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	var n int64
	switch format {
	case "parquet", "csv", "jsonl":
		n, err = s.copyTo(ctx, query, format, tmpName)
	case "arrow":
		n, err = s.arrowTo(ctx, query, tmpName)
	default:
		return 0, fmt.Errorf("export: unknown format %q", format)
	}
	if err != nil {
		return 0, err
	}
	if err := os.Rename(tmpName, out); err != nil {
		return 0, fmt.Errorf("export: rename into %s: %w", out, err)
	}
	return n, nil
}

func (s *Session) copyTo(ctx context.Context, query, format, path string) (int64, error) {
	// Text formats write timestamps in RFC 3339, UTC (the session's time
	// zone): pyarrow's and polars' CSV readers type them as UTC timestamps,
	// and JSON readers parse the strings without a format.
	const rfc3339 = "TIMESTAMPFORMAT '%Y-%m-%dT%H:%M:%S.%fZ'"
	opts := map[string]string{
		"parquet": "FORMAT parquet, COMPRESSION zstd",
		"csv":     "FORMAT csv, HEADER true, " + rfc3339,
		"jsonl":   "FORMAT json, " + rfc3339,
	}[format]
	q := fmt.Sprintf("COPY (%s) TO %s (%s)", query, quote(path), opts)
	var n int64
	if err := s.conn.QueryRowContext(ctx, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// arrowTo writes an Arrow IPC file (readable by pyarrow.ipc.open_file and
// polars.read_ipc) with arrow-go, streaming DuckDB's record batches.
func (s *Session) arrowTo(ctx context.Context, query, path string) (int64, error) {
	var n int64
	err := s.arrowReader(ctx, query, nil, func(rr array.RecordReader) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		w, err := ipc.NewFileWriter(f, ipc.WithSchema(rr.Schema()))
		if err != nil {
			return err
		}
		for rr.Next() {
			rec := rr.RecordBatch()
			if err := w.Write(rec); err != nil {
				return err
			}
			n += rec.NumRows()
		}
		if err := rr.Err(); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		return f.Sync()
	})
	if err != nil {
		return 0, fmt.Errorf("export arrow: %w", err)
	}
	return n, nil
}
