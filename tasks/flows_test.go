package tasks

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/trustlake/trustlake/sandbox"
)

// fakeRunner is a runner built from a function field.
type fakeRunner struct {
	RunFunc func(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error)
	calls   atomic.Int64
}

func (f *fakeRunner) Run(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error) {
	f.calls.Add(1)
	return f.RunFunc(ctx, spec)
}

// inProcessFake delegates to InProcess, the checks run in process.
func inProcessFake() *fakeRunner {
	return &fakeRunner{RunFunc: InProcess{}.Run}
}

func d14(t *testing.T) (*Library, *Task) {
	t.Helper()
	lib := loadLibrary(t)
	task, err := lib.Task("sheet_set_cell_d14")
	if err != nil {
		t.Fatal(err)
	}
	return lib, task
}

func fixtureDir(t *testing.T, task *Task, name string) string {
	t.Helper()
	for _, f := range task.Fixtures {
		if f.Name == name {
			return f.Dir
		}
	}
	t.Fatalf("%s has no fixture %s", task.ID, name)
	return ""
}

// episode builds an episode folder from a fixture of the D14 task.
func episode(t *testing.T, task *Task, fixture, id string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	meta := Meta{EpisodeID: id, TaskID: task.ID, Source: "natural", Agent: Agent{Name: "test-agent"}}
	if err := BuildEpisode(dir, meta, fixtureDir(t, task, fixture), []byte(`{"step": 1, "action": "key", "keys": "ctrl+s"}`+"\n")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSelfTestFlagsBadFixtures(t *testing.T) {
	lib, _ := d14(t)
	cases := []struct {
		name    string
		run     func(context.Context, sandbox.Spec) (sandbox.Result, error)
		wantErr string
	}{
		{"crash", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{ExitCode: 1, Stderr: []byte("Traceback: boom")}, nil
		}, "exit code 1: Traceback: boom"},
		{"timeout", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{TimedOut: true}, nil
		}, "timed out"},
		{"garbage", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{Stdout: []byte("PASS")}, nil
		}, "not a JSON object"},
		{"always pass", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{Stdout: []byte(`{"pass": true, "category": null}`)}, nil
		}, "want fail F-"},
		{"engine down", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{}, sandbox.ErrNoBackend
		}, "verifier error: run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := SelfTest(t.Context(), lib, &fakeRunner{RunFunc: c.run}, SelfTestOptions{Tasks: []string{"sheet_set_cell_d14"}})
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			for _, r := range res {
				if !r.OK {
					bad++
					if !strings.Contains(r.Err, c.wantErr) {
						t.Errorf("%s: error %q, want it to contain %q", r.Fixture, r.Err, c.wantErr)
					}
				}
			}
			if bad == 0 {
				t.Error("no fixture reported as failing")
			}
		})
	}
}

func TestSelfTestNondeterministic(t *testing.T) {
	lib, _ := d14(t)
	var n atomic.Int64
	flaky := &fakeRunner{RunFunc: func(context.Context, sandbox.Spec) (sandbox.Result, error) {
		if n.Add(1)%2 == 0 {
			return sandbox.Result{Stdout: []byte(`{"pass": false, "category": "F-UNCOMMITTED"}`)}, nil
		}
		return sandbox.Result{Stdout: []byte(`{"pass": true, "category": null}`)}, nil
	}}
	res, err := SelfTest(t.Context(), lib, flaky, SelfTestOptions{Tasks: []string{"sheet_set_cell_d14"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.OK || r.Deterministic || !strings.Contains(r.Err, "nondeterministic") {
			t.Errorf("%s: ok=%v deterministic=%v err=%q; want a nondeterminism failure", r.Fixture, r.OK, r.Deterministic, r.Err)
		}
	}
}

func TestSelfTestUnknownTask(t *testing.T) {
	lib, _ := d14(t)
	if _, err := SelfTest(t.Context(), lib, inProcessFake(), SelfTestOptions{Tasks: []string{"nope"}}); !errors.Is(err, ErrTask) {
		t.Errorf("err = %v, want ErrTask", err)
	}
}

func TestSpecForDeclarativeAndScript(t *testing.T) {
	lib, task := d14(t)
	s := task.spec("/tmp/state", "")
	if s.Image != CheckImage || s.Command[0] != CheckBinary || s.Snapshot != "/tmp/state" || s.Mounts[0].Target != TaskMount || s.Mounts[0].Host != task.Dir {
		t.Errorf("declarative spec = %+v", s)
	}
	py := lib.Tasks["sheet_set_cell_d14_py"]
	s = py.spec("/tmp/state", "/bin/tlc")
	if s.Image != PythonImage || strings.Join(s.Command, " ") != "python3 /task/verify.py /snapshot" {
		t.Errorf("script spec = %+v", s)
	}
	// InProcess refuses script verifiers: untrusted code never runs unsandboxed.
	if _, err := (InProcess{}).Run(t.Context(), s); !errors.Is(err, sandbox.ErrNoBackend) {
		t.Errorf("InProcess ran a script verifier: err = %v", err)
	}
}

func readGT(t *testing.T, dir string) GTFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, GroundTruth))
	if err != nil {
		t.Fatal(err)
	}
	var g GTFile
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestVerify(t *testing.T) {
	lib, task := d14(t)
	pass := episode(t, task, "pass/done", "ep_a")
	notSaved := episode(t, task, "fail/not_saved", "ep_b")
	wrongCell := episode(t, task, "fail/wrong_cell", "ep_c")
	copyEp := episode(t, task, "fail/saved_as_copy", "ep_d")
	r := inProcessFake()
	res, err := Verify(t.Context(), lib, r, []string{pass, notSaved, wrongCell, copyEp}, VerifyOptions{RunOptions: RunOptions{Jobs: 3}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, cat string
		pass    bool
	}{{"ep_a", "", true}, {"ep_b", "F-UNCOMMITTED", false}, {"ep_c", "F-WRONGTARGET", false}, {"ep_d", "F-WRONGTARGET", false}}
	sum, err := VerifierSHA256(task)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		got := res[i]
		if got.Status != StatusWritten || got.EpisodeID != w.id || *got.Pass != w.pass || got.Category != w.cat {
			t.Errorf("result %d = %+v, want %s written pass=%v %s", i, got, w.id, w.pass, w.cat)
		}
		g := readGT(t, got.Dir)
		if g.EpisodeID != w.id || g.Pass != w.pass || g.VerifierSHA256 != sum || !g.Deterministic || len(g.Gates) == 0 {
			t.Errorf("%s gt.json = %+v", w.id, g)
		}
	}
	if got, want := r.calls.Load(), int64(8); got != want {
		t.Errorf("runner called %d times, want %d (twice per episode)", got, want)
	}

	// Identical re-run: no-op.
	res, err = Verify(t.Context(), lib, inProcessFake(), []string{pass}, VerifyOptions{})
	if err != nil || res[0].Status != StatusUnchanged {
		t.Fatalf("re-verify = %+v, %v; want unchanged", res, err)
	}

	// A different gt.json is kept unless Force.
	other := `{"episode_id": "ep_a", "pass": false, "category": "F-CLAIM", "verifier_sha256": "old"}`
	if err := os.WriteFile(filepath.Join(pass, GroundTruth), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ = Verify(t.Context(), lib, inProcessFake(), []string{pass}, VerifyOptions{})
	if res[0].Status != StatusConflict || !strings.Contains(res[0].Err, "old") {
		t.Errorf("conflict = %+v", res[0])
	}
	if data, _ := os.ReadFile(filepath.Join(pass, GroundTruth)); string(data) != other {
		t.Error("gt.json overwritten without Force")
	}
	res, _ = Verify(t.Context(), lib, inProcessFake(), []string{pass}, VerifyOptions{Force: true})
	if res[0].Status != StatusReplaced || !readGT(t, pass).Pass {
		t.Errorf("forced = %+v", res[0])
	}
}

func TestVerifyNoLabel(t *testing.T) {
	lib, task := d14(t)
	cases := []struct {
		name       string
		run        func(context.Context, sandbox.Spec) (sandbox.Result, error)
		wantStatus string
	}{
		{"crash", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{ExitCode: 137, OOMKilled: true}, nil
		}, StatusVerifierError},
		{"flaky", func() func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			var n atomic.Int64
			return func(context.Context, sandbox.Spec) (sandbox.Result, error) {
				return sandbox.Result{Stdout: []byte(`{"pass": false, "category": "F-PARTIAL", "diagnostics": {"run": ` + string(rune('0'+n.Add(1))) + `}}`)}, nil
			}
		}(), StatusNondeterministic},
		{"pass with category", func(context.Context, sandbox.Spec) (sandbox.Result, error) {
			return sandbox.Result{Stdout: []byte(`{"pass": true, "category": "F-PARTIAL"}`)}, nil
		}, StatusVerifierError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ep := episode(t, task, "pass/done", "ep_x")
			res, err := Verify(t.Context(), lib, &fakeRunner{RunFunc: c.run}, []string{ep}, VerifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Status != c.wantStatus || res[0].Labeled() {
				t.Errorf("status %q (%s), want %q", res[0].Status, res[0].Err, c.wantStatus)
			}
			if _, err := os.Stat(filepath.Join(ep, GroundTruth)); err == nil {
				t.Error("gt.json written without a label")
			}
		})
	}
}

func TestVerifyBadEpisodes(t *testing.T) {
	lib, task := d14(t)
	noMeta := t.TempDir()
	unknown := episode(t, task, "pass/done", "ep_u")
	meta := `{"episode_id": "ep_u", "task_id": "no_such_task", "source": "natural"}`
	if err := os.WriteFile(filepath.Join(unknown, MetaFile), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	unsafe := episode(t, task, "pass/done", "ep_s")
	if err := os.WriteFile(filepath.Join(unsafe, FinalStateFile), []byte("not a tar"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Verify(t.Context(), lib, inProcessFake(), []string{noMeta, unknown, unsafe}, VerifyOptions{RunOptions: RunOptions{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"meta.json", "no_such_task"} {
		if res[i].Status != StatusError || !strings.Contains(res[i].Err, want) {
			t.Errorf("result %d = %+v, want error mentioning %q", i, res[i], want)
		}
	}
	// An unreadable snapshot gives no label (verifier_error), never a failure.
	if res[2].Status != StatusVerifierError || !strings.Contains(res[2].Err, "final_state") {
		t.Errorf("result 2 = %+v, want verifier_error mentioning final_state", res[2])
	}
}

// TestVerifyEmptySnapshot: an empty final_state.tar.zst was labelled
// pass=false, F-ABORT, deterministic. An empty file and an archive with no
// entries give no label.
func TestVerifyEmptySnapshot(t *testing.T) {
	lib, task := d14(t)
	emptyFile := episode(t, task, "pass/done", "ep_e")
	if err := os.WriteFile(filepath.Join(emptyFile, FinalStateFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	emptyTar := episode(t, task, "pass/done", "ep_t")
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	tar.NewWriter(zw).Close()
	zw.Close()
	if err := os.WriteFile(filepath.Join(emptyTar, FinalStateFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Verify(t.Context(), lib, inProcessFake(), []string{emptyFile, emptyTar}, VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Status != StatusVerifierError || r.Labeled() || !strings.Contains(r.Err, "empty snapshot") {
			t.Errorf("result %d = %+v, want verifier_error: empty snapshot", i, r)
		}
		if _, err := os.Stat(filepath.Join(r.Dir, GroundTruth)); err == nil {
			t.Errorf("result %d: gt.json written for an empty snapshot", i)
		}
	}
}

func TestPerturb(t *testing.T) {
	lib, task := d14(t)
	parent := episode(t, task, "pass/done", "ep_p")
	failing := episode(t, task, "fail/not_saved", "ep_f")
	out := t.TempDir()
	res, err := Perturb(t.Context(), lib, inProcessFake(), []string{parent, failing}, out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"skip_save:Documents/q3_budget.ods":      "F-UNCOMMITTED",
		"shift_cell:Documents/q3_budget.ods!D14": "F-WRONGTARGET",
		"save_as_copy:Documents/q3_budget.ods":   "F-WRONGTARGET",
		"sibling_folder:Documents/q3_budget.ods": "F-WRONGTARGET",
		"delete_unrelated:Documents/notes.txt":   "F-SIDEEFFECT",
	}
	skipped := 0
	for _, r := range res {
		if r.ParentID == "ep_f" {
			if r.Status != PerturbSkipped {
				t.Errorf("failing parent: %+v, want skipped", r)
			}
			skipped++
			continue
		}
		cat, ok := want[r.Perturbation]
		if !ok {
			t.Errorf("unexpected perturbation %+v", r)
			continue
		}
		delete(want, r.Perturbation)
		if r.Status != PerturbCaught || r.Category != cat {
			t.Errorf("%s: status %s category %q (%s), want caught %s", r.Perturbation, r.Status, r.Category, r.Err, cat)
		}
		m, err := os.ReadFile(filepath.Join(r.Dir, MetaFile))
		if err != nil {
			t.Fatal(err)
		}
		var meta map[string]any
		_ = json.Unmarshal(m, &meta)
		if meta["source"] != "perturbed" || meta["parent_episode_id"] != "ep_p" || meta["perturbation"] != r.Perturbation || meta["episode_id"] != r.EpisodeID {
			t.Errorf("%s meta.json = %s", r.Perturbation, m)
		}
		if meta["agent"].(map[string]any)["name"] != "test-agent" {
			t.Errorf("%s: parent meta fields not kept: %s", r.Perturbation, m)
		}
		if _, err := os.Stat(filepath.Join(r.Dir, ActionsFile)); err != nil {
			t.Errorf("%s: actions.jsonl not copied", r.Perturbation)
		}
		if g := readGT(t, r.Dir); g.Pass {
			t.Errorf("%s: gt.json says pass", r.Perturbation)
		}
	}
	if len(want) > 0 || skipped != 1 {
		t.Errorf("missing perturbations %v, skipped parents %d", want, skipped)
	}

	// Existing folders are not overwritten.
	res, _ = Perturb(t.Context(), lib, inProcessFake(), []string{parent}, out, RunOptions{})
	for _, r := range res {
		if r.Status != PerturbError || !strings.Contains(r.Err, "already exists") {
			t.Errorf("second run: %+v, want already exists", r)
		}
	}
}

// TestPerturbSurvivor: a weak verifier that ignores the defect is reported,
// never assumed to have failed.
func TestPerturbSurvivor(t *testing.T) {
	lib, task := d14(t)
	parent := episode(t, task, "pass/done", "ep_p")
	always := &fakeRunner{RunFunc: func(context.Context, sandbox.Spec) (sandbox.Result, error) {
		return sandbox.Result{Stdout: []byte(`{"pass": true, "category": null}`)}, nil
	}}
	res, err := Perturb(t.Context(), lib, always, []string{parent}, t.TempDir(), RunOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(task.Perturbations) {
		t.Fatalf("%d results, want %d", len(res), len(task.Perturbations))
	}
	for _, r := range res {
		if r.Status != PerturbSurvived {
			t.Errorf("%s: %s, want survived", r.Perturbation, r.Status)
		}
	}
}
