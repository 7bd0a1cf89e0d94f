package check

import (
	"path"

	"github.com/trustlake/trustlake/tasks/sheet"
)

func sheetFormat(s *Spec) (string, error) {
	switch s.Type {
	case TypeODSCell:
		return "ods", nil
	case TypeXLSXCell:
		return "xlsx", nil
	case TypeCSVCell:
		return "csv", nil
	}
	return sheet.Format(s.Path)
}

// evalSheet reads one cell (cell checks) or searches a sheet (sheet_find).
func evalSheet(s *Spec, data []byte) (bool, any, error) {
	format, err := sheetFormat(s)
	if err != nil {
		return false, nil, err
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
