// Package sheet reads and writes the cell grid of spreadsheet files (ODS,
// XLSX and CSV) with the standard library only.
//
// It models what a verifier needs: the value of each non-empty cell of each
// sheet, by 1-based row and column. Numbers are float64, booleans bool,
// everything else string. Styles, formulas and formatting are not kept, so
// Encode produces a minimal but valid workbook. Readers bound the work an
// untrusted file can cause (zip entry sizes, number of cells).
package sheet
