package tasks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/sandbox"
)

const libraryDir = "library"

func loadLibrary(t *testing.T) *Library {
	t.Helper()
	lib, err := LoadLibrary(libraryDir)
	if err != nil {
		t.Fatalf("LoadLibrary: %v", err)
	}
	return lib
}

func TestLibraryShape(t *testing.T) {
	lib := loadLibrary(t)
	if got := len(lib.Tasks); got < 30 {
		t.Errorf("library has %d tasks, want at least 30", got)
	}
	domains := map[string]int{}
	for _, task := range lib.Tasks {
		domains[task.Domain]++
		pass, fail := 0, 0
		for _, f := range task.Fixtures {
			if f.Pass {
				pass++
			} else {
				fail++
			}
		}
		if pass == 0 || fail == 0 {
			t.Errorf("%s: %d pass and %d fail fixtures, want at least one of each", task.ID, pass, fail)
		}
	}
	if len(domains) < 6 {
		t.Errorf("library covers domains %v, want at least 6", domains)
	}
	d14, err := lib.Task("sheet_set_cell_d14")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"fail/not_saved": "F-UNCOMMITTED", "fail/wrong_cell": "F-WRONGTARGET", "fail/saved_as_copy": "F-WRONGTARGET", "pass/done": ""}
	for _, f := range d14.Fixtures {
		if c, ok := want[f.Name]; ok {
			if f.Category != c {
				t.Errorf("sheet_set_cell_d14 %s expects %q, want %q", f.Name, f.Category, c)
			}
			delete(want, f.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("sheet_set_cell_d14 lacks the seed's endings %v", want)
	}
}

// TestLibraryFixturesInProcess runs every fixture of every declarative task
// through the checks, in process (no sandbox): cheap, and it catches broken
// fixtures and checks.
func TestLibraryFixturesInProcess(t *testing.T) {
	lib := loadLibrary(t)
	var ids []string
	for _, id := range lib.IDs() {
		if lib.Tasks[id].Declarative() {
			ids = append(ids, id)
		}
	}
	res, err := SelfTest(t.Context(), lib, InProcess{}, SelfTestOptions{Tasks: ids, RunOptions: RunOptions{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 2*len(ids) {
		t.Fatalf("%d results for %d tasks", len(res), len(ids))
	}
	for _, r := range res {
		if !r.OK {
			t.Errorf("%s %s: %s", r.TaskID, r.Fixture, r.Err)
		}
	}
}

// hostPython runs script verifiers with the project's venv Python (which has
// the pinned odfpy), with /task and /snapshot rewritten to host paths. Only
// for the cross-check of the seed's own verifier; it is not a sandbox.
type hostPython struct{ python string }

func (h hostPython) Run(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error) {
	args := make([]string, len(spec.Command))
	for i, a := range spec.Command {
		a = strings.Replace(a, TaskMount, spec.Mounts[0].Host, 1)
		args[i] = strings.Replace(a, SnapshotMount, spec.Snapshot, 1)
	}
	cmd := exec.CommandContext(ctx, h.python, args[1:]...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return sandbox.Result{Stdout: []byte(out.String()), Stderr: []byte(errb.String()), ExitCode: code}, err
}

// TestSeedVerifierOnHost runs the seed's odfpy verifier on the D14 fixtures
// with the venv's pinned odfpy (python/requirements-odf.txt); it checks that
// the ODS files package sheet writes read the same in odfpy.
func TestSeedVerifierOnHost(t *testing.T) {
	python := testenv.VenvPython(t)
	if out, err := exec.Command(python, "-c", "import odf").CombinedOutput(); err != nil {
		testenv.Missing(t, testenv.Python, "odfpy not importable in %s (run make venv): %v\n%s", python, err, out)
	}
	lib := loadLibrary(t)
	res, err := SelfTest(t.Context(), lib, hostPython{python}, SelfTestOptions{Tasks: []string{"sheet_set_cell_d14_py"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.OK {
			t.Errorf("%s: %s", r.Fixture, r.Err)
		}
	}
}

func TestLibraryTaskJSONRoundTrip(t *testing.T) {
	// task.json files are exactly what Task marshals to (the generator's output),
	// so hand edits that add unknown fields fail loading.
	lib := loadLibrary(t)
	task := lib.Tasks["sheet_set_cell_d14"]
	data, err := os.ReadFile(filepath.Join(task.Dir, "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "instruction", "domain", "checks", "perturbations"} {
		if _, ok := m[k]; !ok {
			t.Errorf("task.json lacks %q", k)
		}
	}
}
