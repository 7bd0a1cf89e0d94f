# tasks/sheet_set_cell_d14/verify.py  (the seed's verifier, §4.4, unchanged)
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
