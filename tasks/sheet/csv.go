package sheet

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// readCSV reads a comma-separated file as one sheet named after the file
// (without extension). Every value is a string; rows may differ in length.
func readCSV(data []byte, fileName string) (*Book, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	name := strings.TrimSuffix(fileName, filepath.Ext(fileName))
	sh := &Sheet{Name: name, Cells: map[Ref]any{}}
	for row := 1; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", fileName, err)
		}
		for i, v := range rec {
			if v != "" {
				sh.Cells[Ref{Row: row, Col: i + 1}] = v
			}
		}
		if len(sh.Cells) > MaxCells {
			return nil, fmt.Errorf("%w: more than %d non-empty cells", ErrTooLarge, MaxCells)
		}
	}
	return &Book{Sheets: []*Sheet{sh}}, nil
}

// encodeCSV writes the first sheet; numbers are printed without exponent.
func encodeCSV(b *Book) ([]byte, error) {
	if len(b.Sheets) == 0 {
		return nil, fmt.Errorf("%w: workbook has no sheets", ErrNoSheet)
	}
	s := b.Sheets[0]
	rows, cols := s.Bounds()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for r := 1; r <= rows; r++ {
		rec := make([]string, 0, cols)
		last := 0
		for c := 1; c <= cols; c++ {
			v := s.Cells[Ref{Row: r, Col: c}]
			switch x := v.(type) {
			case nil:
				rec = append(rec, "")
			case float64:
				rec = append(rec, formatNumber(x))
				last = c
			default:
				rec = append(rec, fmt.Sprint(x))
				last = c
			}
		}
		if err := w.Write(rec[:max(last, 1)]); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
