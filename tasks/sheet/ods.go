package sheet

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

const (
	nsTable  = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsOffice = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsText   = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
)

// readODS reads every table of content.xml.
//
// Rows and columns advance by table:number-rows-repeated and
// table:number-columns-repeated, as the seed's odfpy verifier does. A cell's
// value is office:value (a number) when present, else office:boolean-value,
// else office:date-value / office:time-value, else its text (text:p
// paragraphs joined by "\n"). Unlike the seed's verifier, covered cells
// (table:covered-table-cell, under a merged cell) take their column too, as
// the ODF standard says; nested tables inside a cell are skipped.
func readODS(data []byte, name string) (*Book, error) {
	zr, err := openZip(data, name)
	if err != nil {
		return nil, err
	}
	content, err := readMember(zr, "content.xml")
	if err != nil {
		return nil, err
	}
	if content == nil {
		return nil, fmt.Errorf("%w: no content.xml (not an ODS file)", ErrFormat)
	}
	return decodeODS(content)
}

// odsState walks content.xml.
type odsState struct {
	book    *Book
	cur     *Sheet
	depth   int // table nesting depth; only depth 1 is read
	row     int // rows before the current row
	rowReps int
	rowVals map[int]any // column → value of the current row
	col     int         // columns before the current cell
	colReps int
	inCell  bool
	cellVal any
	text    strings.Builder
	paras   int
	ncells  int
}

func decodeODS(content []byte) (*Book, error) {
	st := &odsState{book: &Book{}}
	dec := xml.NewDecoder(bytes.NewReader(content))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse content.xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := st.start(t); err != nil {
				return nil, err
			}
		case xml.EndElement:
			if err := st.end(t); err != nil {
				return nil, err
			}
		case xml.CharData:
			if st.inCell && st.depth == 1 && st.paras > 0 {
				st.text.Write(t)
			}
		}
	}
	return st.book, nil
}

// attr returns the value of t's attribute space:local, "" when absent.
func attr(t xml.StartElement, space, local string) string {
	for _, a := range t.Attr {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func repeats(t xml.StartElement, local string) (int, error) {
	v := attr(t, nsTable, local)
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1<<24 {
		return 0, fmt.Errorf("parse content.xml: table:%s=%q: want a positive number", local, v)
	}
	return n, nil
}

func (st *odsState) start(t xml.StartElement) error {
	if t.Name.Space == nsTable && t.Name.Local == "table" {
		st.depth++
		if st.depth == 1 {
			st.cur = &Sheet{Name: attr(t, nsTable, "name"), Cells: map[Ref]any{}}
			st.book.Sheets = append(st.book.Sheets, st.cur)
			st.row = 0
		}
		return nil
	}
	if st.depth != 1 {
		return nil
	}
	switch {
	case t.Name.Space == nsTable && t.Name.Local == "table-row":
		n, err := repeats(t, "number-rows-repeated")
		if err != nil {
			return err
		}
		st.rowReps, st.col, st.rowVals = n, 0, map[int]any{}
	case t.Name.Space == nsTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
		n, err := repeats(t, "number-columns-repeated")
		if err != nil {
			return err
		}
		st.colReps, st.inCell, st.cellVal, st.paras = n, true, nil, 0
		st.text.Reset()
		if v := attr(t, nsOffice, "value"); v != "" {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return fmt.Errorf("parse content.xml: office:value=%q: not a number", v)
			}
			st.cellVal = f
		} else if v := attr(t, nsOffice, "boolean-value"); v != "" {
			st.cellVal = v == "true"
		} else if v := cmp.Or(attr(t, nsOffice, "date-value"), attr(t, nsOffice, "time-value")); v != "" {
			st.cellVal = v
		}
	case t.Name.Space == nsText && t.Name.Local == "p" && st.inCell:
		if st.paras > 0 {
			st.text.WriteByte('\n')
		}
		st.paras++
	case t.Name.Space == nsText && t.Name.Local == "s" && st.inCell:
		n, _ := strconv.Atoi(attr(t, nsText, "c"))
		st.text.WriteString(strings.Repeat(" ", max(1, min(n, 1024))))
	case t.Name.Space == nsText && t.Name.Local == "tab" && st.inCell:
		st.text.WriteByte('\t')
	case t.Name.Space == nsText && t.Name.Local == "line-break" && st.inCell:
		st.text.WriteByte('\n')
	}
	return nil
}

func (st *odsState) end(t xml.EndElement) error {
	if t.Name.Space == nsTable && t.Name.Local == "table" {
		st.depth--
		return nil
	}
	if st.depth != 1 || t.Name.Space != nsTable {
		return nil
	}
	switch t.Name.Local {
	case "table-cell", "covered-table-cell":
		v := st.cellVal
		if v == nil && st.text.Len() > 0 {
			v = st.text.String()
		}
		if v != nil {
			for i := 1; i <= st.colReps; i++ {
				st.rowVals[st.col+i] = v
			}
		}
		st.col += st.colReps
		st.inCell = false
	case "table-row":
		if len(st.rowVals) > 0 {
			st.ncells += len(st.rowVals) * st.rowReps
			if st.ncells > MaxCells {
				return fmt.Errorf("%w: more than %d non-empty cells", ErrTooLarge, MaxCells)
			}
			for i := 1; i <= st.rowReps; i++ {
				for c, v := range st.rowVals {
					st.cur.Cells[Ref{Row: st.row + i, Col: c}] = v
				}
			}
		}
		st.row += st.rowReps
	}
	return nil
}
