package sheet

import (
	"bytes"
	"encoding/xml"
	"fmt"
)

const odsMime = "application/vnd.oasis.opendocument.spreadsheet"

const odsManifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">` +
	`<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="` + odsMime + `"/>` +
	`<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
	`</manifest:manifest>`

// encodeODS writes a minimal ODS: mimetype (stored first), manifest and
// content.xml. Runs of empty rows and cells use number-rows-repeated and
// number-columns-repeated, as LibreOffice writes them.
func encodeODS(b *Book) ([]byte, error) {
	var c bytes.Buffer
	c.WriteString(`<?xml version="1.0" encoding="UTF-8"?>`)
	c.WriteString(`<office:document-content xmlns:office="` + nsOffice + `" xmlns:table="` + nsTable + `" xmlns:text="` + nsText + `" office:version="1.2">`)
	c.WriteString(`<office:body><office:spreadsheet>`)
	for _, s := range b.Sheets {
		fmt.Fprintf(&c, `<table:table table:name="%s">`, esc(s.Name))
		rows, cols := s.Bounds()
		used := map[int]bool{} // rows with a value
		for r, v := range s.Cells {
			used[r.Row] = used[r.Row] || v != nil
		}
		if cols > 0 {
			fmt.Fprintf(&c, `<table:table-column table:number-columns-repeated="%d"/>`, cols)
		}
		empty := 0
		for r := 1; r <= rows; r++ {
			if !used[r] {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprintf(&c, `<table:table-row table:number-rows-repeated="%d"><table:table-cell table:number-columns-repeated="%d"/></table:table-row>`, empty, max(cols, 1))
				empty = 0
			}
			c.WriteString(`<table:table-row>`)
			blank := 0
			for col := 1; col <= cols; col++ {
				v := s.Cells[Ref{Row: r, Col: col}]
				if v == nil {
					blank++
					continue
				}
				if blank > 0 {
					fmt.Fprintf(&c, `<table:table-cell table:number-columns-repeated="%d"/>`, blank)
					blank = 0
				}
				writeODSCell(&c, v)
			}
			c.WriteString(`</table:table-row>`)
		}
		// A trailing block of empty rows, like LibreOffice's sheet tail.
		fmt.Fprintf(&c, `<table:table-row table:number-rows-repeated="%d"><table:table-cell table:number-columns-repeated="%d"/></table:table-row>`, 1000, max(cols, 1))
		c.WriteString(`</table:table>`)
	}
	c.WriteString(`</office:spreadsheet></office:body></office:document-content>`)
	return writeZip([]zipMember{
		{Name: "mimetype", Data: []byte(odsMime)},
		{Name: "META-INF/manifest.xml", Data: []byte(odsManifest)},
		{Name: "content.xml", Data: c.Bytes()},
	})
}

func writeODSCell(c *bytes.Buffer, v any) {
	switch x := v.(type) {
	case float64:
		n := formatNumber(x)
		fmt.Fprintf(c, `<table:table-cell office:value-type="float" office:value="%s"><text:p>%s</text:p></table:table-cell>`, n, n)
	case bool:
		fmt.Fprintf(c, `<table:table-cell office:value-type="boolean" office:boolean-value="%t"><text:p>%s</text:p></table:table-cell>`, x, map[bool]string{true: "TRUE", false: "FALSE"}[x])
	default:
		fmt.Fprintf(c, `<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`, esc(fmt.Sprint(x)))
	}
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
