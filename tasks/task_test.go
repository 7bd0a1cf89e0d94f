package tasks

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/sandbox"
)

// taskDir writes a task folder with the given task.json and files.
func taskDir(t *testing.T, id, taskJSON string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	all := map[string]string{"task.json": taskJSON}
	for k, v := range files {
		all[k] = v
	}
	for p, c := range all {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var goodFiles = map[string]string{
	"initial/a.txt":                  "a",
	"fixtures/pass/done/a.txt":       "b",
	"fixtures/fail/nope/a.txt":       "a",
	"fixtures/fail/nope.expect.json": `{"category": "F-UNCOMMITTED"}`,
}

const goodTask = `{"id": "t1", "instruction": "change a.txt to b", "domain": "files",
 "checks": [{"id": "b", "type": "text_contains", "path": "a.txt", "contains": "b", "category": "F-UNCOMMITTED"}]}`

func TestLoad(t *testing.T) {
	task, err := Load(taskDir(t, "t1", goodTask, goodFiles))
	if err != nil {
		t.Fatal(err)
	}
	if task.ImageName() != CheckImage || task.TimeoutDuration() != DefaultTimeout || len(task.Fixtures) != 2 || task.Initial == "" {
		t.Errorf("task = %+v", task)
	}
	if f := task.Fixtures[1]; f.Name != "fail/nope" || f.Category != "F-UNCOMMITTED" || f.Pass {
		t.Errorf("fail fixture = %+v", f)
	}
}

func TestLoadErrors(t *testing.T) {
	without := func(k string) map[string]string {
		m := map[string]string{}
		for a, b := range goodFiles {
			if !strings.HasPrefix(a, k) {
				m[a] = b
			}
		}
		return m
	}
	with := func(k, v string) map[string]string {
		m := without("\x00")
		m[k] = v
		return m
	}
	cases := []struct {
		name     string
		id       string
		taskJSON string
		files    map[string]string
		want     []string
	}{
		{"bad cell", "t1", `{"id": "t1", "instruction": "x", "domain": "files", "checks": [
			{"id": "a", "type": "file_exists", "path": "a.txt", "category": "F-ABORT"},
			{"id": "b", "type": "file_exists", "path": "a.txt", "category": "F-ABORT"},
			{"id": "c", "type": "ods_cell", "path": "q.ods", "cell": "D", "equals": 1, "category": "F-PARTIAL"}]}`, goodFiles,
			[]string{"t1/task.json: checks[2].cell: invalid check: bad cell reference"}},
		{"unknown field", "t1", `{"id": "t1", "instruction": "x", "domain": "files", "chekcs": []}`, goodFiles, []string{`unknown field "chekcs"`}},
		{"id mismatch", "t2", goodTask, goodFiles, []string{`t2/task.json: id: invalid task: "t1" does not match the folder name "t2"`}},
		{"both verifiers", "t1", `{"id": "t1", "instruction": "x", "domain": "files", "image": "img", "verifier": {"command": ["x"]},
			"checks": [{"id": "a", "type": "file_exists", "path": "a.txt", "category": "F-ABORT"}]}`, goodFiles, []string{"verifier: invalid task: give either checks or verifier"}},
		{"script without image", "t1", `{"id": "t1", "instruction": "x", "domain": "files", "verifier": {"command": ["python3", "/task/verify.py"]}}`, goodFiles, []string{"image: invalid task: missing"}},
		{"no checks", "t1", `{"id": "t1", "instruction": "x", "domain": "files"}`, goodFiles, []string{"checks: invalid check: the list is empty"}},
		{"bad timeout", "t1", strings.Replace(goodTask, `"domain"`, `"timeout": "soon", "domain"`, 1), goodFiles, []string{`timeout: invalid task: "soon"`}},
		{"bad perturbation", "t1", strings.Replace(goodTask, `"domain"`, `"perturbations": [{"name": "shift_cell", "path": "a.txt", "cell": "X"}], "domain"`, 1), goodFiles,
			[]string{"perturbations[0].cell: invalid task", "perturbations[0].path: invalid task"}},
		{"no pass fixture", "t1", goodTask, without("fixtures/pass"), []string{"fixtures/pass: invalid task: no pass fixture"}},
		{"fail fixture without expectation", "t1", goodTask, without("fixtures/fail/nope.expect.json"), []string{"nope.expect.json: invalid task: missing"}},
		{"bad expected category", "t1", goodTask, with("fixtures/fail/nope.expect.json", `{"category": "broken"}`), []string{`category: invalid task: "broken"`}},
		{"no initial state", "t1", goodTask, without("initial"), []string{"no initial state: add initial/ or setup.sh"}},
		{"unchanged needs initial", "t1", `{"id": "t1", "instruction": "x", "domain": "files", "checks": [{"id": "a", "type": "unchanged", "path": "a.txt", "category": "F-ABORT"}]}`,
			with("setup.sh", "true"), []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := c.files
			if c.name == "unchanged needs initial" {
				files = without("initial")
				files["setup.sh"] = "true"
				c.want = []string{"checks[0].type: invalid task: unchanged compares with initial/, which is missing"}
			}
			_, err := Load(taskDir(t, c.id, c.taskJSON, files))
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			if !errors.Is(err, ErrTask) && !strings.Contains(err.Error(), "invalid check") {
				t.Errorf("error %v is not ErrTask", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadLibraryReportsAll(t *testing.T) {
	root := t.TempDir()
	good := taskDir(t, "t1", goodTask, goodFiles)
	if err := os.Rename(good, filepath.Join(root, "t1")); err != nil {
		t.Fatal(err)
	}
	bad := taskDir(t, "t2", goodTask, goodFiles)
	if err := os.Rename(bad, filepath.Join(root, "t2")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	lib, err := LoadLibrary(root)
	if err == nil || !strings.Contains(err.Error(), "t2/task.json: id") {
		t.Errorf("err = %v, want the t2 id error", err)
	}
	if lib == nil || len(lib.Tasks) != 1 || lib.Tasks["t1"] == nil {
		t.Errorf("lib = %+v, want t1 loaded", lib)
	}
	if _, err := LoadLibrary(t.TempDir()); !errors.Is(err, ErrTask) {
		t.Errorf("empty library: err = %v", err)
	}
}

func TestVerifierSHA256(t *testing.T) {
	dir := taskDir(t, "t1", goodTask, goodFiles)
	load := func() *Task {
		task, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		return task
	}
	base, err := VerifierSHA256(load())
	if err != nil {
		t.Fatal(err)
	}
	edit := func(p, c string) string {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		h, err := VerifierSHA256(load())
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if h := edit("fixtures/pass/done/a.txt", "bb"); h != base {
		t.Error("editing a fixture changed the verifier hash")
	}
	if h := edit("task.json", strings.Replace(goodTask, "change a.txt to b", "please change a.txt", 1)); h != base {
		t.Error("editing the instruction changed the verifier hash")
	}
	if h := edit("initial/a.txt", "A"); h == base {
		t.Error("editing the initial state did not change the verifier hash")
	}
	edit("initial/a.txt", "a")
	if h := edit("verify.py", "print(1)"); h == base {
		t.Error("adding verify.py did not change the verifier hash")
	}
	os.Remove(filepath.Join(dir, "verify.py"))
	if h := edit("task.json", strings.Replace(goodTask, `"contains": "b"`, `"contains": "c"`, 1)); h == base {
		t.Error("editing a check did not change the verifier hash")
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	src := t.TempDir()
	for p, c := range map[string]string{"a.txt": "a", "Documents/q.ods": "zip", "empty/.keep": ""} {
		full := filepath.Join(src, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
	}
	if err := os.Symlink("a.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	var one, two bytes.Buffer
	if err := WriteSnapshot(&one, src); err != nil {
		t.Fatal(err)
	}
	if err := WriteSnapshot(&two, src); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("two snapshots of the same tree differ")
	}
	dst := filepath.Join(t.TempDir(), "x")
	if _, err := sandbox.ExtractSnapshot(t.Context(), &one, dst, sandbox.ExtractLimits{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dst, "Documents/q.ods"))
	if err != nil || string(got) != "zip" {
		t.Errorf("extracted Documents/q.ods = %q, %v", got, err)
	}
	if l, err := os.Readlink(filepath.Join(dst, "link")); err != nil || l != "a.txt" {
		t.Errorf("link = %q, %v", l, err)
	}
}
