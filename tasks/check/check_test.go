package check

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/tasks/sheet"
)

// writeTree writes files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeBook(t *testing.T, p string, cells map[string]any, sheetName string) {
	t.Helper()
	sh := &sheet.Sheet{Name: sheetName}
	for a1, v := range cells {
		r, err := sheet.ParseRef(a1)
		if err != nil {
			t.Fatal(err)
		}
		sh.Set(r, v)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	format, err := sheet.Format(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := sheet.Encode(&sheet.Book{Sheets: []*sheet.Sheet{sh, {Name: "Other", Cells: map[sheet.Ref]any{{Row: 1, Col: 1}: "x"}}}}, format)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeDB(t *testing.T, p string, stmts ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// env builds an initial and a final state for the check tests.
func env(t *testing.T) Env {
	t.Helper()
	initial, final := t.TempDir(), t.TempDir()
	common := map[string]string{
		"keep.txt":        "unchanged\n",
		"notes/todo.txt":  "buy milk\nwalk dog\n",
		"conf/app.json":   `{"editor": {"tabSize": 4, "font": "mono"}, "editor.wrap": true, "list": [{"url": "a"}, {"url": "b"}]}`,
		"conf/app.yaml":   "spec:\n  replicas: 3\n  image: nginx\n",
		"conf/app.toml":   "[server]\nport = 8081\nhost = \"localhost\"\n",
		"conf/app.ini":    "; comment\nroot=1\n[general]\ntimezone = Europe/Berlin\n[remote \"origin\"]\nurl = \"git@x\"\n",
		"data/prices.csv": "item,price\nwidget,9.99\ngadget,5\n",
	}
	writeTree(t, initial, common)
	writeTree(t, final, common)
	writeTree(t, initial, map[string]string{"gone.txt": "bye"})
	writeTree(t, final, map[string]string{"notes/todo.txt": "buy milk\nwalk dog\ncall mom\n", "new.txt": "hi"})
	writeBook(t, filepath.Join(final, "Documents/q3.ods"), map[string]any{"A1": "Item", "D14": 4500.0, "B2": true}, "Budget")
	writeBook(t, filepath.Join(final, "Documents/q3.xlsx"), map[string]any{"A1": "Total", "B10": 1250.0}, "Sales")
	writeDB(t, filepath.Join(final, "app/todo.db"),
		"CREATE TABLE tasks(id INTEGER PRIMARY KEY, title TEXT, done INTEGER)",
		"INSERT INTO tasks(title, done) VALUES ('pay rent', 1), ('pay bills', 0)")
	return Env{Final: final, Initial: initial}
}

func TestEvalOne(t *testing.T) {
	e := env(t)
	const sha = "e1f7e7fd8a36e1c7b1d0aa3ea7dc1e2ba7c4e1bc0d9ac2eb5e8ef1d6c6b6d8f3"
	cases := []struct {
		name string
		spec Spec
		want bool
	}{
		{"file exists", Spec{Type: TypeFileExists, Path: "keep.txt"}, true},
		{"file exists missing", Spec{Type: TypeFileExists, Path: "nope.txt"}, false},
		{"file exists dir", Spec{Type: TypeFileExists, Path: "notes"}, false},
		{"dir exists", Spec{Type: TypeDirExists, Path: "notes"}, true},
		{"file absent", Spec{Type: TypeFileAbsent, Path: "gone.txt"}, true},
		{"file absent present", Spec{Type: TypeFileAbsent, Path: "keep.txt"}, false},
		{"not inverts", Spec{Type: TypeFileExists, Path: "keep.txt", Not: true}, false},
		{"unchanged same", Spec{Type: TypeUnchanged, Path: "keep.txt"}, true},
		{"unchanged modified", Spec{Type: TypeUnchanged, Path: "notes/todo.txt"}, false},
		{"unchanged removed", Spec{Type: TypeUnchanged, Path: "gone.txt"}, false},
		{"unchanged created", Spec{Type: TypeUnchanged, Path: "new.txt"}, false},
		{"unchanged both absent", Spec{Type: TypeUnchanged, Path: "never.txt"}, true},
		{"sha256 match", Spec{Type: TypeSHA256, Path: "new.txt", SHA256: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"}, true},
		{"sha256 mismatch", Spec{Type: TypeSHA256, Path: "new.txt", SHA256: sha}, false},
		{"text contains", Spec{Type: TypeTextContains, Path: "notes/todo.txt", Contains: "call mom"}, true},
		{"text contains no", Spec{Type: TypeTextContains, Path: "notes/todo.txt", Contains: "call dad"}, false},
		{"text regex multiline", Spec{Type: TypeTextRegex, Path: "notes/todo.txt", Regex: `^walk \w+$`}, true},
		{"text regex no", Spec{Type: TypeTextRegex, Path: "notes/todo.txt", Regex: `^dog`}, false},
		{"json key", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "editor.tabSize", Equals: 4.0}, true},
		{"json key wrong", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "editor.tabSize", Equals: 2.0}, false},
		{"json key string want number", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "editor.tabSize", Equals: "4"}, true},
		{"json quoted dotted key", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: `["editor.wrap"]`, Equals: true}, true},
		{"json index", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "list[1].url", Equals: "b"}, true},
		{"json any", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "list[*].url", Equals: "b"}, true},
		{"json any none", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "list[*].url", Equals: "c"}, false},
		{"json missing key", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "editor.size", Equals: 1.0}, false},
		{"json object", Spec{Type: TypeJSONKey, Path: "conf/app.json", Key: "editor", Equals: map[string]any{"tabSize": 4.0, "font": "mono"}}, true},
		{"yaml key", Spec{Type: TypeYAMLKey, Path: "conf/app.yaml", Key: "spec.replicas", Equals: 3.0}, true},
		{"yaml key wrong", Spec{Type: TypeYAMLKey, Path: "conf/app.yaml", Key: "spec.image", Equals: "httpd"}, false},
		{"toml key", Spec{Type: TypeTOMLKey, Path: "conf/app.toml", Key: "server.port", Equals: 8081.0}, true},
		{"toml key string", Spec{Type: TypeTOMLKey, Path: "conf/app.toml", Key: "server.host", Equals: "localhost"}, true},
		{"ini key", Spec{Type: TypeINIKey, Path: "conf/app.ini", Key: "general.timezone", Equals: "Europe/Berlin"}, true},
		{"ini root key number", Spec{Type: TypeINIKey, Path: "conf/app.ini", Key: "root", Equals: 1.0}, true},
		{"ini quoted section", Spec{Type: TypeINIKey, Path: "conf/app.ini", Key: `remote "origin".url`, Equals: "git@x"}, true},
		{"ini wrong section", Spec{Type: TypeINIKey, Path: "conf/app.ini", Key: "display.timezone", Equals: "Europe/Berlin"}, false},
		{"csv cell", Spec{Type: TypeCSVCell, Path: "data/prices.csv", Cell: "B2", Equals: 9.99}, true},
		{"csv cell by ext", Spec{Type: TypeCell, Path: "data/prices.csv", Cell: "A3", Equals: "gadget"}, true},
		{"csv cell wrong", Spec{Type: TypeCell, Path: "data/prices.csv", Cell: "B3", Equals: 9.99}, false},
		{"ods cell", Spec{Type: TypeODSCell, Path: "Documents/q3.ods", Cell: "D14", Equals: 4500.0}, true},
		{"ods cell bool", Spec{Type: TypeODSCell, Path: "Documents/q3.ods", Cell: "B2", Equals: true}, true},
		{"ods cell empty", Spec{Type: TypeODSCell, Path: "Documents/q3.ods", Cell: "D15", Equals: 4500.0}, false},
		{"ods named sheet", Spec{Type: TypeODSCell, Path: "Documents/q3.ods", Sheet: "Other", Cell: "A1", Equals: "x"}, true},
		{"ods missing sheet", Spec{Type: TypeODSCell, Path: "Documents/q3.ods", Sheet: "Nope", Cell: "A1", Equals: "x"}, false},
		{"xlsx cell", Spec{Type: TypeXLSXCell, Path: "Documents/q3.xlsx", Cell: "B10", Equals: 1250.0}, true},
		{"xlsx shared string", Spec{Type: TypeCell, Path: "Documents/q3.xlsx", Cell: "A1", Equals: "Total"}, true},
		{"xlsx wrong", Spec{Type: TypeCell, Path: "Documents/q3.xlsx", Cell: "B11", Equals: 1250.0}, false},
		{"ods is not xlsx", Spec{Type: TypeXLSXCell, Path: "Documents/q3.ods", Cell: "D14", Equals: 4500.0}, false},
		{"sheet find", Spec{Type: TypeSheetFind, Path: "Documents/q3.ods", Equals: 4500.0}, true},
		{"sheet find excluded", Spec{Type: TypeSheetFind, Path: "Documents/q3.ods", Equals: 4500.0, Exclude: []string{"D14"}}, false},
		{"sqlite scalar", Spec{Type: TypeSQLiteQuery, Path: "app/todo.db", Query: "SELECT done FROM tasks WHERE title = 'pay rent'", Equals: 1.0}, true},
		{"sqlite scalar wrong", Spec{Type: TypeSQLiteQuery, Path: "app/todo.db", Query: "SELECT done FROM tasks WHERE title = 'pay bills'", Equals: 1.0}, false},
		{"sqlite rows", Spec{Type: TypeSQLiteQuery, Path: "app/todo.db", Query: "SELECT title, done FROM tasks ORDER BY id", Equals: []any{[]any{"pay rent", 1.0}, []any{"pay bills", 0.0}}}, true},
		{"sqlite not scalar", Spec{Type: TypeSQLiteQuery, Path: "app/todo.db", Query: "SELECT title FROM tasks", Equals: "pay rent"}, false},
		{"sqlite write refused", Spec{Type: TypeSQLiteQuery, Path: "app/todo.db", Query: "DELETE FROM tasks RETURNING 1", Equals: 1.0}, false},
		{"no other changes allow", Spec{Type: TypeNoOtherChanges, Allow: []string{"notes/todo.txt", "new.txt", "gone.txt", "Documents/**", "app/**"}}, true},
		{"no other changes caught", Spec{Type: TypeNoOtherChanges, Allow: []string{"notes/*", "Documents/**", "app/**"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec
			got, diag, err := evalOne(t.Context(), &s, e)
			if s.Not {
				got = !got
			}
			if got != c.want {
				t.Errorf("holds = %v (got %v, err %v), want %v", got, diag, err, c.want)
			}
		})
	}
}

func TestNoOtherChangesLists(t *testing.T) {
	e := env(t)
	s := Spec{Type: TypeNoOtherChanges, Allow: []string{"Documents/**", "app/**"}}
	_, got, err := evalOne(t.Context(), &s, e)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-gone.txt", "+new.txt", "~notes/todo.txt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

func TestSymlinkEscapeRefused(t *testing.T) {
	e := env(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeTree(t, filepath.Dir(outside), map[string]string{"secret.txt": "s3cret"})
	if err := os.Symlink(outside, filepath.Join(e.Final, "link.txt")); err != nil {
		t.Fatal(err)
	}
	s := Spec{Type: TypeTextContains, Path: "link.txt", Contains: "s3cret"}
	holds, _, err := evalOne(t.Context(), &s, e)
	if holds || err == nil {
		t.Errorf("holds = %v, err = %v; want a refusal to follow the link out of the root", holds, err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestEvaluateCombination(t *testing.T) {
	e := env(t)
	holds := func(id, gate, cat string) Spec {
		return Spec{ID: id, Type: TypeFileExists, Path: "keep.txt", Gate: gate, Category: cat}
	}
	fails := func(id, gate, cat string) Spec {
		return Spec{ID: id, Type: TypeFileExists, Path: "nope.txt", Gate: gate, Category: cat}
	}
	refine := func(id, of, cat string, h bool) Spec {
		s := holds(id, "", cat)
		if !h {
			s = fails(id, "", cat)
		}
		s.Refines = of
		return s
	}
	cases := []struct {
		name     string
		specs    []Spec
		wantPass bool
		wantCat  string
	}{
		{"all hold", []Spec{holds("a", "", schema.CatPartial), holds("b", "process", schema.CatPartial)}, true, ""},
		{"first failing critical", []Spec{fails("a", "", schema.CatUncommitted), fails("b", "", schema.CatPartial)}, false, schema.CatUncommitted},
		{"critical beats earlier administrative", []Spec{fails("a", "administrative", schema.CatPartial), fails("b", "critical", schema.CatWrongTarget)}, false, schema.CatWrongTarget},
		{"process beats administrative", []Spec{fails("a", "administrative", schema.CatPartial), fails("b", "process", schema.CatSideEffect)}, false, schema.CatSideEffect},
		{"refinement applies", []Spec{fails("a", "", schema.CatUncommitted), refine("r1", "a", schema.CatWrongTarget, false), refine("r2", "a", schema.CatWrongApp, true)}, false, schema.CatWrongApp},
		{"refinement of passing check ignored", []Spec{holds("a", "", schema.CatUncommitted), refine("r", "a", schema.CatWrongTarget, true), fails("b", "", schema.CatPartial)}, false, schema.CatPartial},
		{"refining check never gates", []Spec{holds("a", "", schema.CatUncommitted), refine("r", "a", schema.CatWrongTarget, false)}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := Validate(c.specs); err != nil {
				t.Fatal(err)
			}
			v := Evaluate(t.Context(), c.specs, e, false)
			gotCat := ""
			if v.Category != nil {
				gotCat = *v.Category
			}
			if v.Pass != c.wantPass || gotCat != c.wantCat {
				t.Errorf("pass, category = %v, %q; want %v, %q", v.Pass, gotCat, c.wantPass, c.wantCat)
			}
			for _, g := range v.Gates {
				if g.ID[0] == 'r' {
					t.Errorf("refining check %s listed as a gate", g.ID)
				}
			}
		})
	}
}

func TestEvaluateScore(t *testing.T) {
	e := env(t)
	specs := []Spec{
		{ID: "a", Type: TypeFileExists, Path: "keep.txt", Category: schema.CatPartial, Weight: ptr(3.0)},
		{ID: "b", Type: TypeFileExists, Path: "nope.txt", Category: schema.CatPartial},
	}
	v := Evaluate(t.Context(), specs, e, true)
	if v.Score == nil || *v.Score != 0.75 {
		t.Fatalf("score = %v, want 0.75", v.Score)
	}
	if v := Evaluate(t.Context(), specs, e, false); v.Score != nil {
		t.Errorf("score without Options.Score = %v, want nil", *v.Score)
	}
}

func TestValidate(t *testing.T) {
	ok := Spec{ID: "a", Type: TypeFileExists, Path: "x", Category: schema.CatPartial}
	with := func(f func(*Spec)) []Spec { s := ok; f(&s); return []Spec{s} }
	cases := []struct {
		name  string
		specs []Spec
		want  string // substring of the error; "" means valid
	}{
		{"valid", []Spec{ok}, ""},
		{"empty list", nil, "checks: invalid check: the list is empty"},
		{"missing id", with(func(s *Spec) { s.ID = "" }), "checks[0].id: invalid check: missing"},
		{"bad type", with(func(s *Spec) { s.Type = "magic" }), `checks[0].type: invalid check: "magic" not one of`},
		{"bad category", with(func(s *Spec) { s.Category = "F-UNCOMMITTED_OR_WRONGTARGET" }), `checks[0].category: invalid check: "F-UNCOMMITTED_OR_WRONGTARGET" not one of`},
		{"missing category", with(func(s *Spec) { s.Category = "" }), "checks[0].category: invalid check: missing"},
		{"bad gate", with(func(s *Spec) { s.Gate = "fatal" }), `checks[0].gate: invalid check: "fatal"`},
		{"absolute path", with(func(s *Spec) { s.Path = "/etc/passwd" }), "checks[0].path: invalid check"},
		{"dotdot path", with(func(s *Spec) { s.Path = "../x" }), "checks[0].path: invalid check"},
		{"bad cell", with(func(s *Spec) { s.Type, s.Cell, s.Equals = TypeODSCell, "14D", 1.0 }), "checks[0].cell: invalid check: bad cell reference"},
		{"missing equals", with(func(s *Spec) { s.Type, s.Cell = TypeODSCell, "D14" }), "checks[0].equals: invalid check: missing"},
		{"bad regex", with(func(s *Spec) { s.Type, s.Regex = TypeTextRegex, "(" }), "checks[0].regex: invalid check"},
		{"bad key path", with(func(s *Spec) { s.Type, s.Key, s.Equals = TypeJSONKey, "a..b", 1.0 }), "checks[0].key: invalid check"},
		{"cell needs known extension", with(func(s *Spec) { s.Type, s.Path, s.Cell, s.Equals = TypeCell, "a.numbers", "A1", 1.0 }), "checks[0].path: invalid check: unsupported spreadsheet format"},
		{"bad sha", with(func(s *Spec) { s.Type, s.SHA256 = TypeSHA256, "abc" }), "checks[0].sha256: invalid check: want 64 hex digits"},
		{"duplicate id", []Spec{ok, ok}, `checks[1].id: invalid check: "a" already used by checks[0]`},
		{"refines unknown", []Spec{ok, {ID: "r", Type: TypeFileExists, Path: "x", Refines: "zz", Category: schema.CatWrongTarget}}, `checks[1].refines: invalid check: "zz" is not an earlier gating check`},
		{"refines with gate", []Spec{ok, {ID: "r", Type: TypeFileExists, Path: "x", Refines: "a", Gate: "process", Category: schema.CatWrongTarget}}, "checks[1].gate: invalid check: a refining check has no gate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.specs)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Validate = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestParseKeyPath(t *testing.T) {
	cases := []struct {
		in   string
		want []step
		bad  bool
	}{
		{in: "a.b[0].c", want: []step{{key: "a"}, {key: "b"}, {index: 0, kind: stepIndex}, {key: "c"}}},
		{in: `["x.y"].z`, want: []step{{key: "x.y"}, {key: "z"}}},
		{in: `roots["a]b"][*]`, want: []step{{key: "roots"}, {key: "a]b"}, {kind: stepAny}}},
		{in: "", bad: true},
		{in: "a.", bad: true},
		{in: "a[x]", bad: true},
		{in: "a[1", bad: true},
	}
	for _, c := range cases {
		got, err := parseKeyPath(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("parseKeyPath(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseKeyPath(%q): %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(step{})); diff != "" {
			t.Errorf("parseKeyPath(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestEqual(t *testing.T) {
	cases := []struct {
		got, want any
		eq        bool
	}{
		{4500.0, 4500.0, true},
		{"4500", 4500.0, true},
		{" 4500 ", 4500.0, true},
		{"45o0", 4500.0, false},
		{4500.0, "4500", true},
		{int64(3), 3.0, true},
		{"true", true, true},
		{true, "true", true},
		{1.0, true, false},
		{nil, 0.0, false},
		{[]any{int64(1), "a"}, []any{1.0, "a"}, true},
		{[]any{1.0}, []any{1.0, 2.0}, false},
		{4500.0000000001, 4500.0, true},
		{4500.01, 4500.0, false},
	}
	for _, c := range cases {
		if got := equal(c.got, c.want, 0); got != c.eq {
			t.Errorf("equal(%#v, %#v) = %v, want %v", c.got, c.want, got, c.eq)
		}
	}
}

// TestSheetFormatBeforeRead: a sheet_find on a path of no spreadsheet
// format reports the format, whether or not the file exists (the file was
// read first from d0332bc on, so a missing file hid the task's mistake and
// changed the diagnostic written into gt.json).
func TestSheetFormatBeforeRead(t *testing.T) {
	e := env(t)
	for _, p := range []string{"never.txt", "keep.txt"} {
		s := Spec{Type: TypeSheetFind, Path: p, Equals: "x"}
		if _, _, err := evalOne(t.Context(), &s, e); !errors.Is(err, sheet.ErrFormat) {
			t.Errorf("%s: err = %v, want %v", p, err, sheet.ErrFormat)
		}
	}
}
