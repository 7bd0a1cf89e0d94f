package sheet

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Sentinel errors; check them with errors.Is.
var (
	ErrFormat   = errors.New("unsupported spreadsheet format")
	ErrNoSheet  = errors.New("no such sheet")
	ErrTooLarge = errors.New("spreadsheet too large")
	ErrCellRef  = errors.New("bad cell reference")
)

// MaxCells bounds the non-empty cells one Read keeps, so that a repeated row
// in a hostile file cannot exhaust memory.
const MaxCells = 1 << 20

// maxEntryBytes bounds one uncompressed zip member (content.xml, a worksheet).
const maxEntryBytes = 64 << 20

// Ref is a 1-based cell position.
type Ref struct {
	Row int
	Col int
}

// String gives the A1 name of r, e.g. "D14".
func (r Ref) String() string { return ColumnName(r.Col) + strconv.Itoa(r.Row) }

// Sheet is one named grid of non-empty cells. A value is float64, bool or
// string; a missing key is an empty cell.
type Sheet struct {
	Name  string
	Cells map[Ref]any
}

// Book is the sheets of one file, in file order.
type Book struct {
	Sheets []*Sheet
}

// Sheet returns the sheet named name, or the first sheet when name is "".
func (b *Book) Sheet(name string) (*Sheet, error) {
	if len(b.Sheets) == 0 {
		return nil, fmt.Errorf("%w: workbook has no sheets", ErrNoSheet)
	}
	if name == "" {
		return b.Sheets[0], nil
	}
	if i := slices.IndexFunc(b.Sheets, func(s *Sheet) bool { return s.Name == name }); i >= 0 {
		return b.Sheets[i], nil
	}
	return nil, fmt.Errorf("%w: %q", ErrNoSheet, name)
}

// Get returns the value at r, or nil for an empty cell.
func (s *Sheet) Get(r Ref) any { return s.Cells[r] }

// Set stores v at r; a nil v or "" clears the cell.
func (s *Sheet) Set(r Ref, v any) {
	if s.Cells == nil {
		s.Cells = map[Ref]any{}
	}
	if v == nil || v == "" {
		delete(s.Cells, r)
		return
	}
	s.Cells[r] = v
}

// Refs returns the non-empty cells in row-major order.
func (s *Sheet) Refs() []Ref {
	out := slices.Collect(maps.Keys(s.Cells))
	slices.SortFunc(out, func(a, b Ref) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	return out
}

// Bounds returns the last used row and column (0, 0 when empty).
func (s *Sheet) Bounds() (rows, cols int) {
	for r := range s.Cells {
		rows = max(rows, r.Row)
		cols = max(cols, r.Col)
	}
	return rows, cols
}

// ParseRef parses an A1 reference such as "D14" (case-insensitive, "$" ignored).
func ParseRef(a1 string) (Ref, error) {
	s := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(a1), "$", ""))
	i := 0
	col := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		col = col*26 + int(s[i]-'A'+1)
		i++
		if col > 1<<20 {
			return Ref{}, fmt.Errorf("%w: %q: column out of range", ErrCellRef, a1)
		}
	}
	if i == 0 || i == len(s) {
		return Ref{}, fmt.Errorf("%w: %q: want a column letter and a row number like D14", ErrCellRef, a1)
	}
	row, err := strconv.Atoi(s[i:])
	if err != nil || row < 1 || row > 1<<24 {
		return Ref{}, fmt.Errorf("%w: %q: row must be a positive number", ErrCellRef, a1)
	}
	return Ref{Row: row, Col: col}, nil
}

// ColumnName gives the letters of a 1-based column: 1 → A, 27 → AA.
func ColumnName(col int) string {
	var b []byte
	for col > 0 {
		col--
		b = append([]byte{byte('A' + col%26)}, b...)
		col /= 26
	}
	return string(b)
}

// Format names a file format by the extension of path: "ods", "xlsx" or "csv".
func Format(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".ods" || ext == ".xlsx" || ext == ".csv" {
		return ext[1:], nil
	}
	return "", fmt.Errorf("%w: %q (want .ods, .xlsx or .csv)", ErrFormat, ext)
}

// ReadFile reads the workbook at path in the format given by its extension.
func ReadFile(path string) (*Book, error) {
	format, err := Format(path)
	if err != nil {
		return nil, err
	}
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, format, filepath.Base(path))
}

// Decode reads a workbook from its bytes; name is the file name (it names
// the one sheet of a CSV file and appears in errors).
func Decode(data []byte, format, name string) (*Book, error) {
	if c, ok := codecs[format]; ok {
		return c.read(data, name)
	}
	return nil, fmt.Errorf("%w: %q", ErrFormat, format)
}

// Encode returns b in format ("ods", "xlsx" or "csv"). The output depends
// only on b (fixed zip timestamps, sorted cells), so the same book always
// gives the same bytes.
func Encode(b *Book, format string) ([]byte, error) {
	if c, ok := codecs[format]; ok {
		return c.write(b)
	}
	return nil, fmt.Errorf("%w: %q", ErrFormat, format)
}

// codecs reads and writes each format by name.
var codecs = map[string]struct {
	read  func(data []byte, name string) (*Book, error)
	write func(*Book) ([]byte, error)
}{"ods": {readODS, encodeODS}, "xlsx": {readXLSX, encodeXLSX}, "csv": {readCSV, encodeCSV}}

// formatNumber prints a float the way spreadsheets store it: 4500, 0.25.
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
