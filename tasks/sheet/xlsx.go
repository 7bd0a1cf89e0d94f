package sheet

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
)

type xlsxWorkbook struct {
	Sheets []struct {
		Name string `xml:"name,attr"`
		RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
	} `xml:"sheets>sheet"`
}

type xlsxRels struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

type xlsxSST struct {
	SI []xlsxRich `xml:"si"`
}

// xlsxRich is a string item: plain <t> or rich-text runs <r><t>.
type xlsxRich struct {
	T string `xml:"t"`
	R []struct {
		T string `xml:"t"`
	} `xml:"r"`
}

func (r xlsxRich) text() string {
	var b strings.Builder
	b.WriteString(r.T)
	for _, run := range r.R {
		b.WriteString(run.T)
	}
	return b.String()
}

type xlsxSheet struct {
	Rows []struct {
		R     int `xml:"r,attr"`
		Cells []struct {
			R  string    `xml:"r,attr"`
			T  string    `xml:"t,attr"`
			V  *string   `xml:"v"`
			IS *xlsxRich `xml:"is"`
		} `xml:"c"`
	} `xml:"sheetData>row"`
}

// readXLSX reads every worksheet: workbook.xml names the sheets, its rels
// give each sheet's part, sharedStrings.xml holds t="s" strings.
func readXLSX(zdata []byte, name string) (*Book, error) {
	zr, err := openZip(zdata, name)
	if err != nil {
		return nil, err
	}
	var wb xlsxWorkbook
	if ok, err := readXML(zr, "xl/workbook.xml", &wb); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%w: no xl/workbook.xml (not an XLSX file)", ErrFormat)
	}
	var rels xlsxRels
	if _, err := readXML(zr, "xl/_rels/workbook.xml.rels", &rels); err != nil {
		return nil, err
	}
	targets := map[string]string{}
	for _, r := range rels.Rels {
		t, abs := strings.CutPrefix(r.Target, "/")
		if !abs {
			t = path.Join("xl", t)
		}
		targets[r.ID] = t
	}
	var sst xlsxSST
	if _, err := readXML(zr, "xl/sharedStrings.xml", &sst); err != nil {
		return nil, err
	}
	var shared []string
	for _, si := range sst.SI {
		shared = append(shared, si.text())
	}
	book := &Book{}
	ncells := 0
	for i, s := range wb.Sheets {
		part, ok := targets[s.RID]
		if !ok {
			part = fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)
		}
		var ws xlsxSheet
		if ok, err := readXML(zr, part, &ws); err != nil {
			return nil, err
		} else if !ok {
			return nil, fmt.Errorf("%w: sheet %q: missing part %s", ErrFormat, s.Name, part)
		}
		sh, err := decodeXLSXSheet(s.Name, part, &ws, shared)
		if err != nil {
			return nil, err
		}
		ncells += len(sh.Cells)
		if ncells > MaxCells {
			return nil, fmt.Errorf("%w: more than %d non-empty cells", ErrTooLarge, MaxCells)
		}
		book.Sheets = append(book.Sheets, sh)
	}
	return book, nil
}

func decodeXLSXSheet(name, part string, ws *xlsxSheet, shared []string) (*Sheet, error) {
	sh := &Sheet{Name: name, Cells: map[Ref]any{}}
	prevRow := 0
	for _, row := range ws.Rows {
		r := row.R
		if r == 0 {
			r = prevRow + 1
		}
		prevRow = r
		prevCol := 0
		for _, c := range row.Cells {
			ref := Ref{Row: r, Col: prevCol + 1}
			if c.R != "" {
				got, err := ParseRef(c.R)
				if err != nil {
					return nil, fmt.Errorf("parse %s: %w", part, err)
				}
				ref = got
			}
			prevCol = ref.Col
			v, err := xlsxValue(c.T, c.V, c.IS, shared)
			if err != nil {
				return nil, fmt.Errorf("parse %s: cell %s: %w", part, ref, err)
			}
			if v != nil {
				sh.Cells[ref] = v
			}
		}
	}
	return sh, nil
}

func xlsxValue(t string, v *string, is *xlsxRich, shared []string) (any, error) {
	if t == "inlineStr" {
		if is == nil {
			return nil, nil
		}
		return is.text(), nil
	}
	if v == nil {
		return nil, nil
	}
	switch t {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(*v))
		if err != nil || i < 0 || i >= len(shared) {
			return nil, fmt.Errorf("shared string index %q out of range", *v)
		}
		return shared[i], nil
	case "b":
		return strings.TrimSpace(*v) == "1", nil
	case "str", "e", "d":
		return *v, nil
	}
	// "n" or absent
	if strings.TrimSpace(*v) == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(*v), 64)
	if err != nil {
		return nil, fmt.Errorf("value %q is not a number", *v)
	}
	return f, nil
}

// encodeXLSX writes a minimal XLSX; strings go to sharedStrings.xml.
func encodeXLSX(b *Book) ([]byte, error) {
	var (
		shared []string
		index  = map[string]int{}
		parts  []zipMember
		wb     bytes.Buffer
		rels   bytes.Buffer
		ctypes bytes.Buffer
	)
	wb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>`)
	rels.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	ctypes.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
		`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`)
	for i, s := range b.Sheets {
		n := i + 1
		fmt.Fprintf(&wb, `<sheet name="%s" sheetId="%d" r:id="rId%d"/>`, esc(s.Name), n, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, n, n)
		fmt.Fprintf(&ctypes, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, n)
		var ws bytes.Buffer
		ws.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
		row := 0
		for _, ref := range s.Refs() {
			if ref.Row != row {
				if row != 0 {
					ws.WriteString(`</row>`)
				}
				row = ref.Row
				fmt.Fprintf(&ws, `<row r="%d">`, row)
			}
			switch x := s.Cells[ref].(type) {
			case float64:
				fmt.Fprintf(&ws, `<c r="%s"><v>%s</v></c>`, ref, formatNumber(x))
			case bool:
				fmt.Fprintf(&ws, `<c r="%s" t="b"><v>%d</v></c>`, ref, map[bool]int{true: 1}[x])
			default:
				str := fmt.Sprint(x)
				k, ok := index[str]
				if !ok {
					k = len(shared)
					index[str] = k
					shared = append(shared, str)
				}
				fmt.Fprintf(&ws, `<c r="%s" t="s"><v>%d</v></c>`, ref, k)
			}
		}
		if row != 0 {
			ws.WriteString(`</row>`)
		}
		ws.WriteString(`</sheetData></worksheet>`)
		parts = append(parts, zipMember{Name: fmt.Sprintf("xl/worksheets/sheet%d.xml", n), Data: ws.Bytes()})
	}
	fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`, len(b.Sheets)+1)
	wb.WriteString(`</sheets></workbook>`)
	rels.WriteString(`</Relationships>`)
	ctypes.WriteString(`</Types>`)
	var sst bytes.Buffer
	fmt.Fprintf(&sst, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+
		`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(shared), len(shared))
	for _, s := range shared {
		fmt.Fprintf(&sst, `<si><t xml:space="preserve">%s</t></si>`, esc(s))
	}
	sst.WriteString(`</sst>`)
	members := []zipMember{
		{Name: "[Content_Types].xml", Data: ctypes.Bytes()},
		{Name: "_rels/.rels", Data: []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)},
		{Name: "xl/workbook.xml", Data: wb.Bytes()},
		{Name: "xl/_rels/workbook.xml.rels", Data: rels.Bytes()},
		{Name: "xl/sharedStrings.xml", Data: sst.Bytes()},
	}
	return writeZip(append(members, parts...))
}
