package check

import (
	"path"

	"github.com/trustlake/trustlake/tasks/sheet"
)

// cellFormats gives the file format of the cell checks that name one.
var cellFormats = map[string]string{TypeODSCell: "ods", TypeXLSXCell: "xlsx", TypeCSVCell: "csv"}

// evalSheet reads one cell (cell checks) or searches a sheet (sheet_find).
func evalSheet(s *Spec, data []byte) (bool, any, error) {
	format, ok := cellFormats[s.Type]
	if !ok {
		f, err := sheet.Format(s.Path)
		if err != nil {
			return false, nil, err
		}
		format = f
	}
	book, err := sheet.Decode(data, format, path.Base(s.Path))
	if err != nil {
		return false, nil, err
	}
	sh, err := book.Sheet(s.Sheet)
	if err != nil {
		return false, nil, err
	}
	if s.Type == TypeSheetFind {
		skip := map[sheet.Ref]bool{}
		for _, c := range s.Exclude {
			r, err := sheet.ParseRef(c)
			if err != nil {
				return false, nil, err
			}
			skip[r] = true
		}
		for _, r := range sh.Refs() {
			if !skip[r] && equal(sh.Get(r), s.Equals, s.Tolerance) {
				return true, r.String(), nil
			}
		}
		return false, nil, nil
	}
	ref, err := sheet.ParseRef(s.Cell)
	if err != nil {
		return false, nil, err
	}
	got := sh.Get(ref)
	return equal(got, s.Equals, s.Tolerance), cellDiag(got), nil
}

// cellDiag shows an empty cell as "(empty)" in diagnostics.
func cellDiag(v any) any {
	if v == nil {
		return "(empty)"
	}
	return v
}
