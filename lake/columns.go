package lake

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// StringColumn calls fn with every non-null value of one string column of
// a table as the transaction started. Only that column is read, so the
// cost is one column's pages, not whole rows. A file without the column
// contributes nothing.
func (tx *Tx) StringColumn(table, column string, fn func(string)) error {
	for _, f := range tx.base.Files {
		if f.Table != table {
			continue
		}
		if err := readStringColumn(filepath.Join(tx.l.root, filepath.FromSlash(f.Path)), column, fn); err != nil {
			return fmt.Errorf("read %s column %s: %w", f.Path, column, err)
		}
	}
	return nil
}

func readStringColumn(name, column string, fn func(string)) error {
	fh, err := os.Open(name)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(fh, st.Size())
	if err != nil {
		return err
	}
	leaf, ok := pf.Schema().Lookup(column)
	if !ok {
		return nil
	}
	buf := make([]parquet.Value, 1024)
	for _, rg := range pf.RowGroups() {
		vr := parquet.NewColumnChunkValueReader(rg.ColumnChunks()[leaf.ColumnIndex])
		for {
			n, err := vr.ReadValues(buf)
			for _, v := range buf[:n] {
				if !v.IsNull() {
					fn(string(v.ByteArray()))
				}
			}
			if err != nil {
				vr.Close()
				if !errors.Is(err, io.EOF) {
					return err
				}
				break
			}
		}
	}
	return nil
}
