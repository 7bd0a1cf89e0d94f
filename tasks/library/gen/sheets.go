package main

import (
	"strconv"

	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
)

const (
	q3      = "Documents/q3_budget.ods"
	q3Copy  = "Documents/q3_budget(1).ods"
	q3Lock  = "Documents/.~lock.q3_budget.ods#"
	q2      = "Documents/q2_budget.ods"
	q3Desk  = "Desktop/q3_budget.ods"
	sales   = "Reports/sales.xlsx"
	uncomm  = "F-UNCOMMITTED"
	wrongT  = "F-WRONGTARGET"
	wrongA  = "F-WRONGAPP"
	partial = "F-PARTIAL"
	sideEff = "F-SIDEEFFECT"
	abort   = "F-ABORT"
)

// budget is a small quarterly budget: items in A, quarters in B-D; D14 is
// the Q3 travel line (3900), D15 misc (250).
func budget(q int) book {
	cells := map[string]any{"A1": "Item", "B1": "Q1", "C1": "Q2", "D1": "Q3"}
	items := []string{"Rent", "Salaries", "Software", "Hardware", "Training", "Marketing", "Legal", "Insurance", "Utilities", "Cleaning", "Catering", "Postage", "Travel", "Misc"}
	for i, it := range items {
		row := strconv.Itoa(i + 2)
		cells["A"+row] = it
		cells["B"+row] = float64(1000 + 100*i)
		cells["C"+row] = float64(1100 + 100*i + q)
		cells["D"+row] = float64(1200 + 50*i)
	}
	cells["D14"] = 3900.0
	cells["D15"] = 250.0
	return book{Format: "ods", Sheets: []sheetDef{{Name: "Budget", Cells: cells}, {Name: "Notes", Cells: map[string]any{"A1": "Figures in EUR"}}}}
}

// d14Initial is the starting home directory of both D14 tasks.
func d14Initial() state {
	return state{
		q3:                    budget(3),
		q2:                    budget(2),
		"Documents/notes.txt": text("Q3 planning: travel budget to be raised to 4500 (approved 2026-09-30).\n"),
		"Desktop/readme.txt":  text("Shared desktop. Do not store spreadsheets here.\n"),
	}
}

// d14Endings are the seed's four endings (A-D) plus three more.
func d14Endings() (pass, fail map[string]ending) {
	done := budget(3).with(map[string]any{"D14": 4500.0})
	pass = map[string]ending{
		"done":                {Changes: state{q3: done}, Note: "ending A: D14 = 4500, saved"},
		"done_office_running": {Changes: state{q3: done, q3Lock: text(",agent,sandbox,10.10.2026 09:14,file:///home/agent/.config/libreoffice/4;\n")}, Note: "ending A while LibreOffice still holds its lock file"},
	}
	fail = map[string]ending{
		"not_saved":        {Changes: state{}, Category: uncomm, Note: "ending B: the file still has the old value 3900"},
		"wrong_cell":       {Changes: state{q3: budget(3).with(map[string]any{"D15": 4500.0})}, Category: wrongT, Note: "ending C: D15 = 4500, D14 unchanged"},
		"saved_as_copy":    {Changes: state{q3Copy: done}, Category: wrongT, Note: "ending D: saved as q3_budget(1).ods, original untouched"},
		"saved_to_desktop": {Changes: state{q3Desk: done}, Category: wrongT, Note: "saved into a sibling folder (Desktop), original untouched"},
		"wrong_document":   {Changes: state{q2: budget(2).with(map[string]any{"D14": 4500.0})}, Category: wrongA, Note: "edited q2_budget.ods instead"},
		"deleted_notes":    {Changes: state{q3: done, "Documents/notes.txt": nil}, Category: sideEff, Note: "goal reached, but an unrelated file was deleted"},
	}
	return pass, fail
}

const seedVerifyPy = `# tasks/sheet_set_cell_d14/verify.py  (the seed's verifier, §4.4, unchanged)
import json, sys
from odf.opendocument import load
from odf.table import Table, TableRow, TableCell

TARGET_FILE = "Documents/q3_budget.ods"
TARGET_ROW, TARGET_COL = 14, 4          # D14, 1-based
EXPECTED = 4500.0

def cell_value(path, row, col):
    doc = load(path)
    sheet = doc.spreadsheet.getElementsByType(Table)[0]
    r = 0
    for tr in sheet.getElementsByType(TableRow):
        reps = int(tr.getAttribute("numberrowsrepeated") or 1)
        if r + reps >= row:
            c = 0
            for tc in tr.getElementsByType(TableCell):
                creps = int(tc.getAttribute("numbercolumnsrepeated") or 1)
                if c + creps >= col:
                    v = tc.getAttribute("value")
                    return float(v) if v not in (None, "") else None
                c += creps
            return None
        r += reps
    return None

def main(root):
    path = f"{root}/{TARGET_FILE}"
    try:
        v = cell_value(path, TARGET_ROW, TARGET_COL)
    except FileNotFoundError:
        return {"pass": False, "category": "F-WRONGTARGET",
                "diagnostics": {"error": "target file missing"}}
    ok = v is not None and abs(v - EXPECTED) < 1e-9
    return {"pass": ok,
            "category": None if ok else "F-UNCOMMITTED_OR_WRONGTARGET",
            "diagnostics": {"D14": v}}

if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
`

func sheetTasks() []def {
	pass, fail := d14Endings()
	d14 := def{
		Task: tasks.Task{
			ID:          "sheet_set_cell_d14",
			Domain:      "spreadsheets",
			Instruction: "In the spreadsheet q3_budget.ods (in Documents), set cell D14 to 4500 and save the file.",
			Timeout:     "30s",
			Note:        "The seed's running example (§2). Checks refine the seed's F-UNCOMMITTED_OR_WRONGTARGET: the old value alone means not saved (F-UNCOMMITTED); 4500 in another cell, a copy q3_budget(1).ods or a copy in another folder means the right edit on the wrong object (F-WRONGTARGET); an edited q2_budget.ods means the wrong document (F-WRONGAPP).",
			Checks: []check.Spec{
				gate("target_exists", check.TypeFileExists, wrongT, check.Spec{Path: q3, Note: "the seed's verifier: a missing target file is F-WRONGTARGET"}),
				gate("d14_is_4500", check.TypeODSCell, uncomm, check.Spec{Path: q3, Cell: "D14", Equals: 4500.0, Note: "the old value alone: changed on screen, never saved"}),
				refine("edited_other_document", "d14_is_4500", check.TypeUnchanged, wrongA, check.Spec{Path: q2, Not: true}),
				refine("saved_as_copy", "d14_is_4500", check.TypeFileExists, wrongT, check.Spec{Path: q3Copy}),
				refine("saved_to_desktop", "d14_is_4500", check.TypeFileExists, wrongT, check.Spec{Path: q3Desk}),
				refine("value_in_other_cell", "d14_is_4500", check.TypeSheetFind, wrongT, check.Spec{Path: q3, Equals: 4500.0, Exclude: []string{"D14"}}),
				gate("d13_kept", check.TypeODSCell, sideEff, check.Spec{Path: q3, Cell: "D13", Equals: 1750.0}),
				gate("d15_kept", check.TypeODSCell, sideEff, check.Spec{Path: q3, Cell: "D15", Equals: 250.0}),
				sideEffects(q3, "Documents/.~lock.*"),
			},
			Perturbations: []tasks.Perturbation{
				{Name: tasks.PerturbSkipSave, Path: q3},
				{Name: tasks.PerturbShiftCell, Path: q3, Cell: "D14"},
				{Name: tasks.PerturbSaveAsCopy, Path: q3},
				{Name: tasks.PerturbSiblingFolder, Path: q3, To: "Desktop"},
				{Name: tasks.PerturbDeleteUnrelated, Path: "Documents/notes.txt"},
			},
		},
		Initial: d14Initial(),
		Pass:    pass,
		Fail:    fail,
	}

	pyFail := map[string]ending{}
	for _, k := range []string{"not_saved", "wrong_cell", "saved_as_copy"} {
		e := fail[k]
		e.Category = "F-UNCOMMITTED_OR_WRONGTARGET"
		pyFail[k] = e
	}
	py := def{
		Task: tasks.Task{
			ID:          "sheet_set_cell_d14_py",
			Domain:      "spreadsheets",
			Instruction: d14.Task.Instruction,
			Image:       tasks.PythonImage,
			Timeout:     "60s",
			Verifier:    &tasks.Script{Command: []string{"python3", "/task/verify.py", "/snapshot"}},
			Note:        "The seed's own python verifier (odfpy) as a script-verifier task. It cannot tell B, C and D apart (F-UNCOMMITTED_OR_WRONGTARGET, not one of the seven codes: ingest keeps it as category_raw) and does not look for side effects: see pass/side_effect_unseen.",
			Perturbations: []tasks.Perturbation{
				{Name: tasks.PerturbSkipSave, Path: q3},
				{Name: tasks.PerturbShiftCell, Path: q3, Cell: "D14"},
				{Name: tasks.PerturbSaveAsCopy, Path: q3},
			},
		},
		Initial: d14.Initial,
		Pass: map[string]ending{
			"done":               pass["done"],
			"side_effect_unseen": {Changes: fail["deleted_notes"].Changes, Note: "the seed verifier passes this state although notes.txt was deleted (sheet_set_cell_d14 says F-SIDEEFFECT)"},
		},
		Fail:  pyFail,
		Files: map[string]string{"verify.py": seedVerifyPy},
	}
	return []def{d14, py, xlsxTotal(), csvPrice(), odsFill(), xlsxTitle(), csvAddRow()}
}

func salesBook() book {
	cells := map[string]any{"A1": "Month", "B1": "Revenue"}
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug"}
	for i, m := range months {
		cells["A"+strconv.Itoa(i+2)] = m
		cells["B"+strconv.Itoa(i+2)] = float64(100 + 10*i)
	}
	cells["A10"] = "Total"
	return book{Format: "xlsx", Sheets: []sheetDef{{Name: "Sales", Cells: cells}, {Name: "Archive", Cells: map[string]any{"A1": "2025", "B10": 990.0}}}}
}

func xlsxTotal() def {
	done := salesBook().with(map[string]any{"B10": 1240.0})
	wrongSheet := salesBook()
	wrongSheet.Sheets[1].Cells["B10"] = 1240.0
	return def{
		Task: tasks.Task{
			ID: "xlsx_set_total", Domain: "spreadsheets",
			Instruction: "In Reports/sales.xlsx, sheet Sales, enter the total revenue of January to August (1240) in cell B10 and save.",
			Checks: []check.Spec{
				gate("b10_total", check.TypeXLSXCell, uncomm, check.Spec{Path: sales, Sheet: "Sales", Cell: "B10", Equals: 1240.0}),
				refine("total_on_other_sheet", "b10_total", check.TypeSheetFind, wrongT, check.Spec{Path: sales, Sheet: "Archive", Equals: 1240.0}),
				refine("total_in_other_cell", "b10_total", check.TypeSheetFind, wrongT, check.Spec{Path: sales, Sheet: "Sales", Equals: 1240.0, Exclude: []string{"B10"}}),
				gate("archive_kept", check.TypeXLSXCell, sideEff, check.Spec{Path: sales, Sheet: "Archive", Cell: "B10", Equals: 990.0}),
				sideEffects(sales, "Reports/~$sales.xlsx"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: sales}, {Name: tasks.PerturbShiftCell, Path: sales, Sheet: "Sales", Cell: "B10"}},
		},
		Initial: state{sales: salesBook(), "Reports/summary.txt": text("Monthly sales, see sales.xlsx\n")},
		Pass:    map[string]ending{"done": {Changes: state{sales: done}}},
		Fail: map[string]ending{
			"not_saved":   {Changes: state{}, Category: uncomm},
			"wrong_cell":  {Changes: state{sales: salesBook().with(map[string]any{"B11": 1240.0})}, Category: wrongT, Note: "total typed one row too low"},
			"wrong_sheet": {Changes: state{sales: wrongSheet}, Category: wrongT, Note: "B10 of the Archive sheet overwritten"},
		},
	}
}

const productsCSV = "sku,name,price\nP-1,gadget,4.50\nP-2,widget,8.75\nP-3,gizmo,12.00\n"

func csvPrice() def {
	const p = "Documents/products.csv"
	return def{
		Task: tasks.Task{
			ID: "csv_fix_price", Domain: "spreadsheets",
			Instruction: "In Documents/products.csv, change the price of the widget to 9.99 and save the file as CSV.",
			Checks: []check.Spec{
				gate("widget_price", check.TypeCSVCell, uncomm, check.Spec{Path: p, Cell: "C3", Equals: 9.99}),
				refine("price_in_other_row", "widget_price", check.TypeSheetFind, wrongT, check.Spec{Path: p, Equals: 9.99, Exclude: []string{"C3"}}),
				gate("gadget_kept", check.TypeCSVCell, sideEff, check.Spec{Path: p, Cell: "C2", Equals: 4.5}),
				gate("gizmo_kept", check.TypeCSVCell, sideEff, check.Spec{Path: p, Cell: "C4", Equals: 12.0}),
				sideEffects(p),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}, {Name: tasks.PerturbShiftCell, Path: p, Cell: "C3"}},
		},
		Initial: state{p: text(productsCSV)},
		Pass: map[string]ending{
			"done":          {Changes: state{p: text("sku,name,price\nP-1,gadget,4.50\nP-2,widget,9.99\nP-3,gizmo,12.00\n")}},
			"done_requoted": {Changes: state{p: text("\"sku\",\"name\",\"price\"\n\"P-1\",\"gadget\",\"4.5\"\n\"P-2\",\"widget\",\"9.99\"\n\"P-3\",\"gizmo\",\"12\"\n")}, Note: "an office suite re-quoted every field and dropped trailing zeros"},
		},
		Fail: map[string]ending{
			"not_saved": {Changes: state{}, Category: uncomm},
			"wrong_row": {Changes: state{p: text("sku,name,price\nP-1,gadget,4.50\nP-2,widget,8.75\nP-3,gizmo,9.99\n")}, Category: wrongT, Note: "the gizmo's price was changed instead"},
		},
	}
}

func hoursBook(vals map[string]any) book {
	cells := map[string]any{"A1": "Name", "B1": "Week 40", "C1": "Week 41", "A2": "Ana", "A3": "Ben", "A4": "Chen", "B2": 40.0, "B3": 38.0, "B4": 36.0}
	b := book{Format: "ods", Sheets: []sheetDef{{Name: "Hours", Cells: cells}}}
	return b.with(vals)
}

func odsFill() def {
	const p = "Documents/team_hours.ods"
	return def{
		Task: tasks.Task{
			ID: "ods_fill_week", Domain: "spreadsheets",
			Instruction: "In Documents/team_hours.ods fill in week 41 (column C): Ana 38, Ben 40, Chen 35. Save the file.",
			Score:       "weighted",
			Checks: []check.Spec{
				gate("ana", check.TypeODSCell, partial, check.Spec{Path: p, Cell: "C2", Equals: 38.0}),
				refine("nothing_saved", "ana", check.TypeUnchanged, uncomm, check.Spec{Path: p}),
				gate("ben", check.TypeODSCell, partial, check.Spec{Path: p, Cell: "C3", Equals: 40.0}),
				gate("chen", check.TypeODSCell, partial, check.Spec{Path: p, Cell: "C4", Equals: 35.0}),
				sideEffects(p, "Documents/.~lock.*"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}, {Name: tasks.PerturbShiftCell, Path: p, Cell: "C4"}},
		},
		Initial: state{p: hoursBook(nil)},
		Pass:    map[string]ending{"done": {Changes: state{p: hoursBook(map[string]any{"C2": 38.0, "C3": 40.0, "C4": 35.0})}}},
		Fail: map[string]ending{
			"two_of_three": {Changes: state{p: hoursBook(map[string]any{"C2": 38.0, "C3": 40.0})}, Category: partial},
			"not_saved":    {Changes: state{}, Category: uncomm},
		},
	}
}

func inventoryBook(vals map[string]any) book {
	b := book{Format: "xlsx", Sheets: []sheetDef{{Name: "Stock", Cells: map[string]any{"A1": "Inventory", "A2": "Item", "B2": "Qty", "A3": "Bolts", "B3": 500.0}}}}
	return b.with(vals)
}

func xlsxTitle() def {
	const p = "Reports/inventory.xlsx"
	return def{
		Task: tasks.Task{
			ID: "xlsx_set_title", Domain: "spreadsheets",
			Instruction: "In Reports/inventory.xlsx change the title in A1 to \"Inventory 2026\" and save.",
			Checks: []check.Spec{
				gate("title", check.TypeXLSXCell, uncomm, check.Spec{Path: p, Cell: "A1", Equals: "Inventory 2026"}),
				refine("title_elsewhere", "title", check.TypeSheetFind, wrongT, check.Spec{Path: p, Equals: "Inventory 2026", Exclude: []string{"A1"}}),
				gate("header_kept", check.TypeXLSXCell, sideEff, check.Spec{Path: p, Cell: "A2", Equals: "Item"}),
				sideEffects(p, "Reports/~$inventory.xlsx"),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}, {Name: tasks.PerturbSaveAsCopy, Path: p}},
		},
		Initial: state{p: inventoryBook(nil)},
		Pass:    map[string]ending{"done": {Changes: state{p: inventoryBook(map[string]any{"A1": "Inventory 2026"})}}},
		Fail: map[string]ending{
			"not_saved":  {Changes: state{}, Category: uncomm},
			"wrong_cell": {Changes: state{p: inventoryBook(map[string]any{"A2": "Inventory 2026"})}, Category: wrongT, Note: "typed over the header in A2"},
		},
	}
}

func csvAddRow() def {
	const (
		p   = "Documents/expenses.csv"
		old = "Documents/expenses_2025.csv"
	)
	body := "date,item,amount\n2026-10-01,Lunch,12.00\n2026-10-03,Taxi,23.40\n"
	return def{
		Task: tasks.Task{
			ID: "csv_add_row", Domain: "spreadsheets",
			Instruction: "Add the expense 2026-10-10, Coffee, 4.50 as a new last row of Documents/expenses.csv.",
			Checks: []check.Spec{
				gate("row_added", check.TypeTextRegex, uncomm, check.Spec{Path: p, Regex: `^"?2026-10-10"?,"?Coffee"?,"?4\.50?"?\r?$`}),
				refine("added_to_2025", "row_added", check.TypeUnchanged, wrongA, check.Spec{Path: old, Not: true}),
				gate("old_rows_kept", check.TypeTextContains, sideEff, check.Spec{Path: p, Contains: "2026-10-01,Lunch,12.00\n2026-10-03,Taxi,23.40\n"}),
				sideEffects(p),
			},
			Perturbations: []tasks.Perturbation{{Name: tasks.PerturbSkipSave, Path: p}},
		},
		Initial: state{p: text(body), old: text("date,item,amount\n2025-12-30,Paper,3.10\n")},
		Pass:    map[string]ending{"done": {Changes: state{p: text(body + "2026-10-10,Coffee,4.50\n")}}},
		Fail: map[string]ending{
			"wrong_file": {Changes: state{old: text("date,item,amount\n2025-12-30,Paper,3.10\n2026-10-10,Coffee,4.50\n")}, Category: wrongA, Note: "added to last year's file"},
			"overwrote":  {Changes: state{p: text("date,item,amount\n2026-10-10,Coffee,4.50\n")}, Category: sideEff, Note: "the new row replaced the old ones"},
		},
	}
}
