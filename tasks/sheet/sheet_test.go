package sheet

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRef(t *testing.T) {
	cases := []struct {
		in   string
		want Ref
		bad  bool
	}{
		{in: "D14", want: Ref{Row: 14, Col: 4}},
		{in: "a1", want: Ref{Row: 1, Col: 1}},
		{in: "$AA$3", want: Ref{Row: 3, Col: 27}},
		{in: "14D", bad: true},
		{in: "D", bad: true},
		{in: "D0", bad: true},
		{in: "", bad: true},
	}
	for _, c := range cases {
		got, err := ParseRef(c.in)
		if c.bad != (err != nil) {
			t.Errorf("ParseRef(%q) error = %v, want error %v", c.in, err, c.bad)
			continue
		}
		if got != c.want {
			t.Errorf("ParseRef(%q) = %v, want %v", c.in, got, c.want)
		}
		if !c.bad && got.String() != ColumnName(c.want.Col)+itoa(c.want.Row) {
			t.Errorf("Ref.String() = %q", got.String())
		}
	}
	if got, want := ColumnName(28), "AB"; got != want {
		t.Errorf("ColumnName(28) = %q, want %q", got, want)
	}
}

func itoa(i int) string { return Ref{Row: i, Col: 1}.String()[1:] }

func book() *Book {
	return &Book{Sheets: []*Sheet{
		{Name: "Budget", Cells: map[Ref]any{
			{Row: 1, Col: 1}: "Item", {Row: 1, Col: 4}: "Amount",
			{Row: 14, Col: 4}: 4500.0, {Row: 15, Col: 2}: true, {Row: 3, Col: 1}: "a & <b>",
		}},
		{Name: "Notes", Cells: map[Ref]any{{Row: 2, Col: 2}: 0.25}},
	}}
}

func TestRoundTrip(t *testing.T) {
	for _, ext := range []string{".ods", ".xlsx"} {
		t.Run(ext, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "q3"+ext)
			if err := writeFile(p, book()); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(book(), got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			// Deterministic bytes.
			first, _ := os.ReadFile(p)
			if err := writeFile(p, book()); err != nil {
				t.Fatal(err)
			}
			second, _ := os.ReadFile(p)
			if string(first) != string(second) {
				t.Error("two writes of the same book differ")
			}
		})
	}
}

func TestCSV(t *testing.T) {
	p := filepath.Join(t.TempDir(), "prices.csv")
	if err := os.WriteFile(p, []byte("item,price\nwidget,9.99\n\"a,b\",\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := &Book{Sheets: []*Sheet{{Name: "prices", Cells: map[Ref]any{
		{Row: 1, Col: 1}: "item", {Row: 1, Col: 2}: "price",
		{Row: 2, Col: 1}: "widget", {Row: 2, Col: 2}: "9.99", {Row: 3, Col: 1}: "a,b",
	}}}}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := writeFile(p, b); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if got, want := string(data), "item,price\nwidget,9.99\n\"a,b\"\n"; got != want {
		t.Errorf("written CSV = %q, want %q", got, want)
	}
}

// libreContent is content.xml the way LibreOffice writes it: repeated empty
// rows and columns, a covered cell, a text cell with spaces, a nested table
// row group, and a trailing million-row block.
const libreContent = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">
<office:body><office:spreadsheet>
<table:table table:name="Q3">
<table:table-column table:number-columns-repeated="1024"/>
<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell table:number-columns-repeated="2"/><table:table-cell office:value-type="string"><text:p>Q3</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="11"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
<table:table-row-group>
<table:table-row><table:table-cell table:number-columns-repeated="3" office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell><table:table-cell office:value-type="currency" office:value="1200.5"><text:p>$1,200.50</text:p></table:table-cell></table:table-row>
</table:table-row-group>
<table:table-row><table:table-cell table:number-columns-spanned="2" office:value-type="string"><text:p>Total<text:s text:c="2"/>Q3</text:p></table:table-cell><table:covered-table-cell/><table:table-cell/><table:table-cell office:value-type="float" office:value="4500"><text:p>4,500</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="1048561"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
</table:table>
<table:table table:name="Empty"/>
</office:spreadsheet></office:body></office:document-content>`

func TestDecodeODSRepeats(t *testing.T) {
	b, err := decodeODS([]byte(libreContent))
	if err != nil {
		t.Fatal(err)
	}
	want := &Book{Sheets: []*Sheet{
		{Name: "Q3", Cells: map[Ref]any{
			{Row: 1, Col: 1}: "Item", {Row: 1, Col: 4}: "Q3",
			{Row: 13, Col: 1}: 7.0, {Row: 13, Col: 2}: 7.0, {Row: 13, Col: 3}: 7.0, {Row: 13, Col: 4}: 1200.5,
			{Row: 14, Col: 1}: "Total  Q3", {Row: 14, Col: 4}: 4500.0,
		}},
		{Name: "Empty", Cells: map[Ref]any{}},
	}}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name, format string
		data         []byte
	}{
		{"not a zip", "ods", []byte("hello")},
		{"xlsx not a zip", "xlsx", []byte("hello")},
		{"bad repeat", "odsxml", []byte(`<table:table xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><table:table-row table:number-rows-repeated="-1"/></table:table>`)},
		{"huge repeated content", "odsxml", []byte(`<table:table xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><table:table-row table:number-rows-repeated="16000000"><table:table-cell office:value="1"/></table:table-row></table:table>`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.format == "odsxml" {
				_, err = decodeODS(c.data)
			} else {
				_, err = Decode(c.data, c.format, "x."+c.format)
			}
			if err == nil {
				t.Error("want an error")
			}
		})
	}
}

// writeFile writes b to path in the format of its extension.
func writeFile(path string, b *Book) error {
	format, err := Format(path)
	if err != nil {
		return err
	}
	data, err := Encode(b, format)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
