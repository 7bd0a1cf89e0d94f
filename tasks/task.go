package tasks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/tasks/check"
)

// Images the library uses. CheckImage holds only the static trustlake-check
// binary at CheckBinary; PythonImage is Debian with python3 and python3-odf.
const (
	CheckImage  = "trustlake-check:latest"
	PythonImage = "trustlake-python:latest"
	CheckBinary = "/trustlake-check"
)

// Mount points inside the sandbox.
const (
	TaskMount     = "/task"
	SnapshotMount = "/snapshot"
)

// DefaultTimeout bounds one verifier run when task.json gives none.
const DefaultTimeout = 60 * time.Second

// MaxTimeout is the largest timeout a task may declare: a verifier reads
// one final state and must not hold a sandbox for hours.
const MaxTimeout = 10 * time.Minute

// ErrTask is the reason of every task-format error.
var ErrTask = errors.New("invalid task")

// Script is a verifier program run in the sandbox. Command is the argv; the
// task folder is mounted read-only at /task and the final state at /snapshot.
type Script struct {
	Command []string `json:"command"`
}

// Task is one task folder: task.json plus what Load found beside it.
type Task struct {
	ID            string         `json:"id"`
	Instruction   string         `json:"instruction"`
	Domain        string         `json:"domain"`
	Image         string         `json:"image,omitempty"`   // "" means CheckImage for checks
	Timeout       string         `json:"timeout,omitempty"` // Go duration; "" means DefaultTimeout
	Checks        []check.Spec   `json:"checks,omitempty"`
	Verifier      *Script        `json:"verifier,omitempty"`
	Score         string         `json:"score,omitempty"` // "" or "weighted"
	Perturbations []Perturbation `json:"perturbations,omitempty"`
	Note          string         `json:"note,omitempty"`

	Dir      string    `json:"-"` // the task folder
	Initial  string    `json:"-"` // Dir/initial when it exists, else ""
	Setup    string    `json:"-"` // Dir/setup.sh when it exists, else ""
	Fixtures []Fixture `json:"-"` // pass fixtures first, then fail, by name
}

// Fixture is a hand-made final state with its expected verdict.
type Fixture struct {
	Name     string // "pass/done", "fail/not_saved"
	Dir      string
	Pass     bool
	Category string // expected category of a fail fixture, as the verifier writes it
	Note     string
}

// expectation is fixtures/fail/<name>.expect.json.
type expectation struct {
	Category string `json:"category"`
	Note     string `json:"note,omitempty"`
}

// TimeoutDuration returns the verifier timeout.
func (t *Task) TimeoutDuration() time.Duration {
	d, err := time.ParseDuration(t.Timeout)
	if err != nil || d <= 0 {
		return DefaultTimeout
	}
	return min(d, MaxTimeout)
}

// Declarative reports whether the task is verified by checks (not a script).
func (t *Task) Declarative() bool { return t.Verifier == nil }

// ImageName returns the image its verifier runs in.
func (t *Task) ImageName() string {
	if t.Image == "" && t.Declarative() {
		return CheckImage
	}
	return t.Image
}

// Load reads and validates the task folder dir (made absolute: Dir, Initial
// and fixture folders are absolute paths). Every problem is reported,
// each prefixed with the file it concerns, e.g.
// "tasks/library/x/task.json: checks[2].cell: invalid check: ...".
func Load(dir string) (*Task, error) {
	// Sandboxes mount host paths, which must be absolute.
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	name := filepath.Join(dir, "task.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read task: %w", err)
	}
	var t Task
	if err := decodeStrict(data, &t); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrTask, err)
	}
	t.Dir = dir
	var errs []error
	for _, e := range t.validate() {
		errs = append(errs, fmt.Errorf("%s: %w", name, e))
	}
	if st, err := os.Stat(filepath.Join(dir, "initial")); err == nil && st.IsDir() {
		t.Initial = filepath.Join(dir, "initial")
	}
	if _, err := os.Stat(filepath.Join(dir, "setup.sh")); err == nil {
		t.Setup = filepath.Join(dir, "setup.sh")
	}
	if t.Initial == "" && t.Setup == "" {
		errs = append(errs, fmt.Errorf("%s: %w: no initial state: add initial/ or setup.sh", dir, ErrTask))
	}
	if t.Initial == "" {
		for i, c := range t.Checks {
			if c.Type == check.TypeUnchanged || c.Type == check.TypeNoOtherChanges {
				errs = append(errs, fmt.Errorf("%s: checks[%d].type: %w: %s compares with initial/, which is missing", name, i, ErrTask, c.Type))
			}
		}
	}
	fx, ferrs := loadFixtures(dir)
	t.Fixtures = fx
	errs = append(errs, ferrs...)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &t, nil
}

func (t *Task) validate() []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %w: %s", field, ErrTask, fmt.Sprintf(format, args...)))
	}
	if t.ID == "" {
		bad("id", "missing")
	} else if base := filepath.Base(t.Dir); t.ID != base {
		bad("id", "%q does not match the folder name %q", t.ID, base)
	}
	if strings.TrimSpace(t.Instruction) == "" {
		bad("instruction", "missing")
	}
	if t.Domain == "" {
		bad("domain", "missing")
	}
	if t.Timeout != "" {
		if d, err := time.ParseDuration(t.Timeout); err != nil || d <= 0 {
			bad("timeout", "%q: want a positive Go duration like 30s", t.Timeout)
		} else if d > MaxTimeout {
			bad("timeout", "%q is longer than the upper bound %s", t.Timeout, MaxTimeout)
		}
	}
	switch {
	case t.Verifier != nil && len(t.Checks) > 0:
		bad("verifier", "give either checks or verifier, not both")
	case t.Verifier != nil:
		if len(t.Verifier.Command) == 0 {
			bad("verifier.command", "missing")
		}
		if t.Image == "" {
			bad("image", "missing: a script verifier names its image, e.g. %q", PythonImage)
		}
		if t.Score != "" {
			bad("score", "applies to checks only")
		}
	default:
		p := check.Program{Checks: t.Checks, Score: t.Score}
		if err := p.Validate(); err != nil {
			errs = append(errs, unjoin(err)...)
		}
	}
	for i := range t.Perturbations {
		for _, e := range t.Perturbations[i].validate() {
			errs = append(errs, fmt.Errorf("perturbations[%d].%w", i, e))
		}
	}
	return errs
}

// decodeStrict decodes the first JSON value of data into v, refusing
// unknown fields.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// unjoin splits an errors.Join error so that each line gets the file prefix.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// loadFixtures lists fixtures/pass/* and fixtures/fail/* (folders); a fail
// fixture needs fixtures/fail/<name>.expect.json with its category.
func loadFixtures(dir string) ([]Fixture, []error) {
	var (
		out  []Fixture
		errs []error
	)
	for _, kind := range []string{"pass", "fail"} {
		base := filepath.Join(dir, "fixtures", kind)
		ents, err := os.ReadDir(base)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("read fixtures: %w", err))
			continue
		}
		before := len(out)
		for _, e := range ents {
			if !e.IsDir() {
				if !strings.HasSuffix(e.Name(), ".expect.json") {
					errs = append(errs, fmt.Errorf("%s: %w: unexpected file (fixtures are folders)", filepath.Join(base, e.Name()), ErrTask))
				}
				continue
			}
			f := Fixture{Name: kind + "/" + e.Name(), Dir: filepath.Join(base, e.Name()), Pass: kind == "pass"}
			exp := filepath.Join(base, e.Name()+".expect.json")
			data, err := os.ReadFile(exp)
			switch {
			case err == nil:
				var x expectation
				if err := decodeStrict(data, &x); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w: %v", exp, ErrTask, err))
					continue
				}
				if f.Pass && x.Category != "" {
					errs = append(errs, fmt.Errorf("%s: category: %w: a pass fixture has no category", exp, ErrTask))
				}
				f.Category, f.Note = x.Category, x.Note
			case errors.Is(err, fs.ErrNotExist):
				if !f.Pass {
					errs = append(errs, fmt.Errorf("%s: %w: missing (a fail fixture names its expected category)", exp, ErrTask))
					continue
				}
			default:
				errs = append(errs, fmt.Errorf("read expectation: %w", err))
				continue
			}
			if !f.Pass && !isCategoryLike(f.Category) {
				errs = append(errs, fmt.Errorf("%s: category: %w: %q: want a failure code like F-UNCOMMITTED", exp, ErrTask, f.Category))
				continue
			}
			out = append(out, f)
		}
		if len(out) == before {
			errs = append(errs, fmt.Errorf("%s: %w: no %s fixture (need at least one)", base, ErrTask, kind))
		}
	}
	return out, errs
}

// Library is a set of tasks by id.
type Library struct {
	Dir   string
	Tasks map[string]*Task
}

// IDs returns the task ids in sorted order.
func (l *Library) IDs() []string {
	return slices.Sorted(maps.Keys(l.Tasks))
}

// Task returns the task id or an error naming the library.
func (l *Library) Task(id string) (*Task, error) {
	t, ok := l.Tasks[id]
	if !ok {
		return nil, fmt.Errorf("%w: task %q not in %s", ErrTask, id, l.Dir)
	}
	return t, nil
}

// LoadLibrary loads every sub-folder of dir that holds a task.json; other
// folders (a generator, docs) are skipped. It returns the tasks that loaded
// and, when some did not, all their errors joined (callers should treat a
// non-nil error as fatal unless they only want the good tasks).
func LoadLibrary(dir string) (*Library, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read task library: %w", err)
	}
	lib := &Library{Dir: dir, Tasks: map[string]*Task{}}
	var errs []error
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, "task.json")); err != nil {
			continue
		}
		t, err := Load(sub)
		if err != nil {
			errs = append(errs, unjoin(err)...)
			continue
		}
		lib.Tasks[t.ID] = t
	}
	if len(lib.Tasks) == 0 && len(errs) == 0 {
		return nil, fmt.Errorf("%w: no task folders (with task.json) in %s", ErrTask, dir)
	}
	return lib, errors.Join(errs...)
}

// isCategoryLike accepts the seven codes and raw verifier strings such as
// the seed's "F-UNCOMMITTED_OR_WRONGTARGET".
func isCategoryLike(c string) bool {
	return schema.IsCategory(c) || strings.HasPrefix(c, "F-")
}
