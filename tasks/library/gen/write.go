package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/trustlake/trustlake/tasks"
	"github.com/trustlake/trustlake/tasks/check"
	"github.com/trustlake/trustlake/tasks/sheet"
	_ "modernc.org/sqlite" // pure-Go SQLite driver
)

// content is one file of a state: text, book or db. A nil content in an
// overlay deletes the file.
type content interface{ bytes() ([]byte, error) }

// text is a plain file.
type text string

func (t text) bytes() ([]byte, error) { return []byte(t), nil }

// book is a spreadsheet written with package sheet; Format is "ods" or "xlsx".
type book struct {
	Format string
	Sheets []sheetDef
}

type sheetDef struct {
	Name  string
	Cells map[string]any // A1 → float64, bool or string
}

func (b book) bytes() ([]byte, error) {
	bk := &sheet.Book{}
	for _, s := range b.Sheets {
		sh := &sheet.Sheet{Name: s.Name, Cells: map[sheet.Ref]any{}}
		for a1, v := range s.Cells {
			r, err := sheet.ParseRef(a1)
			if err != nil {
				return nil, err
			}
			sh.Set(r, v)
		}
		bk.Sheets = append(bk.Sheets, sh)
	}
	return sheet.Encode(bk, b.Format)
}

// with returns a copy of b with cells of the first sheet changed (nil clears).
func (b book) with(cells map[string]any) book {
	out := book{Format: b.Format}
	for i, s := range b.Sheets {
		c := maps.Clone(s.Cells)
		if i == 0 {
			for k, v := range cells {
				if v == nil {
					delete(c, k)
				} else {
					c[k] = v
				}
			}
		}
		out.Sheets = append(out.Sheets, sheetDef{Name: s.Name, Cells: c})
	}
	return out
}

// db is an SQLite database built by running SQL statements.
type db []string

func (d db) bytes() ([]byte, error) {
	dir, err := os.MkdirTemp("", "gen-db-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "x.db")
	conn, err := sql.Open("sqlite", p)
	if err != nil {
		return nil, err
	}
	// Small pages keep the committed fixtures small.
	for _, s := range append([]string{"PRAGMA page_size = 512"}, d...) {
		if _, err := conn.Exec(s); err != nil {
			conn.Close()
			return nil, fmt.Errorf("%s: %w", s, err)
		}
	}
	if err := conn.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// and returns the statements of d followed by more.
func (d db) and(more ...string) db { return append(append(db{}, d...), more...) }

// state maps home-relative paths to contents.
type state map[string]content

// ending is a fixture: changes to the initial state and, for a failure, the
// expected category.
type ending struct {
	Changes  state
	Category string
	Note     string
}

// def is one task of the library.
type def struct {
	Task    tasks.Task
	Initial state
	Pass    map[string]ending
	Fail    map[string]ending
	Files   map[string]string // extra files of the task folder (verify.py)
}

// all lists every task definition.
func all() []def {
	return slices.Concat(fileTasks(), sheetTasks(), configTasks(), appTasks(), browserTasks(), terminalTasks())
}

// Write (re)creates every task folder under out.
func Write(out string) error {
	seen := map[string]bool{}
	for _, d := range all() {
		if seen[d.Task.ID] {
			return fmt.Errorf("task %s defined twice", d.Task.ID)
		}
		seen[d.Task.ID] = true
		if err := writeTask(filepath.Join(out, d.Task.ID), d); err != nil {
			return fmt.Errorf("task %s: %w", d.Task.ID, err)
		}
	}
	return nil
}

func writeTask(dir string, d def) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var tj bytes.Buffer
	enc := json.NewEncoder(&tj)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d.Task); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "task.json"), tj.Bytes(), 0o644); err != nil {
		return err
	}
	for name, body := range d.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	if err := writeState(filepath.Join(dir, "initial"), d.Initial, nil); err != nil {
		return err
	}
	for kind, endings := range map[string]map[string]ending{"pass": d.Pass, "fail": d.Fail} {
		for name, e := range endings {
			fdir := filepath.Join(dir, "fixtures", kind, name)
			if err := writeState(fdir, d.Initial, e.Changes); err != nil {
				return fmt.Errorf("fixture %s/%s: %w", kind, name, err)
			}
			if kind == "pass" && e.Note == "" {
				continue
			}
			exp, _ := json.MarshalIndent(map[string]string{"category": e.Category, "note": e.Note}, "", "  ")
			if kind == "pass" {
				exp, _ = json.MarshalIndent(map[string]string{"note": e.Note}, "", "  ")
			}
			if err := os.WriteFile(fdir+".expect.json", append(exp, '\n'), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeState writes base with changes applied (a nil change deletes).
func writeState(dir string, base, changes state) error {
	merged := maps.Clone(base)
	for k, v := range changes {
		if v == nil {
			if _, ok := merged[k]; !ok {
				return fmt.Errorf("delete %s: not in the initial state", k)
			}
			delete(merged, k)
			continue
		}
		merged[k] = v
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(merged)) {
		if err := check.CleanPath(k); err != nil {
			return err
		}
		data, err := merged[k].bytes()
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		p := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Helpers for definitions.

// gate builds a gating check.
func gate(id, typ, category string, s check.Spec) check.Spec {
	s.ID, s.Type, s.Category = id, typ, category
	return s
}

// refine builds a refining check of the check `of`.
func refine(id, of, typ, category string, s check.Spec) check.Spec {
	s.ID, s.Type, s.Category, s.Refines = id, typ, category, of
	return s
}

// sideEffects is the usual "no other file changed" check.
func sideEffects(allow ...string) check.Spec {
	return check.Spec{ID: "no_side_effects", Type: check.TypeNoOtherChanges, Category: "F-SIDEEFFECT", Allow: allow}
}
