package tasks

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trustlake/trustlake/tasks/check"
	"github.com/trustlake/trustlake/tasks/sheet"
)

// Perturbation names (seed §3.3): each injects one concrete defect into a
// copy of a passing final state.
const (
	PerturbSkipSave        = "skip_save"        // Path back to its initial content (removed if it did not exist)
	PerturbShiftCell       = "shift_cell"       // the value of Cell moves one row down; Cell gets its initial value
	PerturbSiblingFolder   = "sibling_folder"   // the result at Path goes to a sibling folder (To); Path is restored
	PerturbSaveAsCopy      = "save_as_copy"     // the result is saved as "name(1).ext"; Path is restored
	PerturbDeleteUnrelated = "delete_unrelated" // Path (or the first untouched file) is deleted
)

// PerturbationNames lists the known perturbations.
var PerturbationNames = []string{PerturbSkipSave, PerturbShiftCell, PerturbSiblingFolder, PerturbSaveAsCopy, PerturbDeleteUnrelated}

// Perturbation is one declared defect of a task.
type Perturbation struct {
	Name  string `json:"name"`
	Path  string `json:"path,omitempty"`  // the target file (relative to the home directory)
	Cell  string `json:"cell,omitempty"`  // shift_cell: the target cell
	Sheet string `json:"sheet,omitempty"` // shift_cell: "" means the first sheet
	To    string `json:"to,omitempty"`    // sibling_folder: the folder to write into; "" means "<parent> (old)"
}

func (p *Perturbation) validate() []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %w: %s", field, ErrTask, fmt.Sprintf(format, args...)))
	}
	if !slices.Contains(PerturbationNames, p.Name) {
		bad("name", "%q not one of %s", p.Name, strings.Join(PerturbationNames, ", "))
		return errs
	}
	if p.Path == "" && p.Name != PerturbDeleteUnrelated {
		bad("path", "missing for %s", p.Name)
	}
	for _, f := range [...]struct{ name, v string }{{"path", p.Path}, {"to", p.To}} {
		if f.v != "" {
			if err := check.CleanPath(f.v); err != nil {
				bad(f.name, "%v", err)
			}
		}
	}
	if p.Name == PerturbShiftCell {
		if _, err := sheet.ParseRef(p.Cell); err != nil {
			bad("cell", "%v", err)
		}
		if _, err := sheet.Format(p.Path); p.Path != "" && err != nil {
			bad("path", "%v", err)
		}
	}
	return errs
}

// Label names the perturbation in meta.json, e.g. "shift_cell:Documents/q3_budget.ods!D14".
func (p *Perturbation) Label() string {
	switch {
	case p.Cell != "":
		return p.Name + ":" + p.Path + "!" + p.Cell
	case p.Path != "":
		return p.Name + ":" + p.Path
	}
	return p.Name
}

// ErrNotApplicable means a perturbation cannot apply to this state (e.g. the
// file to delete does not exist); the perturbed episode is not written.
var ErrNotApplicable = errors.New("perturbation not applicable")

// apply injects p into the final-state tree at dir (a private copy).
// initial is the task's initial state ("" when none).
func (p *Perturbation) apply(dir, initial string) error {
	target := filepath.Join(dir, filepath.FromSlash(p.Path))
	switch p.Name {
	case PerturbSkipSave:
		return restoreInitial(dir, initial, p.Path)
	case PerturbSaveAsCopy, PerturbSiblingFolder:
		ext := path.Ext(p.Path)
		moved := strings.TrimSuffix(p.Path, ext) + "(1)" + ext
		if p.Name == PerturbSiblingFolder {
			moved = path.Join(cmp.Or(p.To, path.Dir(p.Path)+" (old)"), path.Base(p.Path))
		}
		if err := moveFile(target, filepath.Join(dir, filepath.FromSlash(moved))); err != nil {
			return err
		}
		return restoreInitial(dir, initial, p.Path)
	case PerturbShiftCell:
		return shiftCell(dir, initial, p)
	case PerturbDeleteUnrelated:
		victim := p.Path
		if victim == "" {
			v, err := firstUntouched(dir, initial)
			if err != nil {
				return err
			}
			victim = v
		}
		err := os.Remove(filepath.Join(dir, filepath.FromSlash(victim)))
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s does not exist", ErrNotApplicable, victim)
		}
		return err
	}
	return fmt.Errorf("%w: unknown perturbation %q", ErrTask, p.Name)
}

// restoreInitial puts rel back to its initial content, or removes it when
// the initial state does not have it.
func restoreInitial(dir, initial, rel string) error {
	dst := filepath.Join(dir, filepath.FromSlash(rel))
	if initial != "" {
		data, err := os.ReadFile(filepath.Join(initial, filepath.FromSlash(rel)))
		if err == nil {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func moveFile(src, dst string) error {
	if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s does not exist", ErrNotApplicable, filepath.Base(src))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(src, dst)
}

// shiftCell moves the value at p.Cell one row down and gives p.Cell its
// initial value. The workbook is rewritten by package sheet, so styles are
// dropped; the cell values are what the verifier reads.
func shiftCell(dir, initial string, p *Perturbation) error {
	file := filepath.Join(dir, filepath.FromSlash(p.Path))
	book, err := sheet.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s does not exist", ErrNotApplicable, p.Path)
	}
	if err != nil {
		return err
	}
	sh, err := book.Sheet(p.Sheet)
	if err != nil {
		return err
	}
	ref, err := sheet.ParseRef(p.Cell)
	if err != nil {
		return err
	}
	var old any
	if initial != "" {
		ib, err := sheet.ReadFile(filepath.Join(initial, filepath.FromSlash(p.Path)))
		if err == nil {
			if is, err := ib.Sheet(p.Sheet); err == nil {
				old = is.Get(ref)
			}
		}
	}
	below := sheet.Ref{Row: ref.Row + 1, Col: ref.Col}
	sh.Set(below, sh.Get(ref))
	sh.Set(ref, old)
	format, _ := sheet.Format(file) // ReadFile accepted it
	data, err := sheet.Encode(book, format)
	if err != nil {
		return fmt.Errorf("encode %s: %w", file, err)
	}
	return writeFileAtomic(file, data)
}

// firstUntouched returns the first file (in path order) that is identical
// in the final and the initial state.
func firstUntouched(dir, initial string) (string, error) {
	if initial == "" {
		return "", fmt.Errorf("%w: no initial state to find an unrelated file in", ErrNotApplicable)
	}
	var files []string
	err := filepath.WalkDir(initial, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(initial, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		a, errA := os.ReadFile(filepath.Join(initial, f))
		b, errB := os.ReadFile(filepath.Join(dir, f))
		if errA == nil && errB == nil && string(a) == string(b) {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: no untouched file to delete", ErrNotApplicable)
}
