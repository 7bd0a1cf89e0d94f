package tasks_test

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/tasks"
)

// TestFixtureEpisodesVerify: episodes made from fixtures verify (in
// process) to their fixtures' expected verdicts, and gt.json appears once.
func TestFixtureEpisodesVerify(t *testing.T) {
	lib, err := tasks.LoadLibrary("library")
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"sheet_set_cell_d14", "app_todo_complete"}
	out := t.TempDir()
	eps, err := tasks.FixtureEpisodes(lib, ids, out, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) < 8 {
		t.Fatalf("only %d episodes", len(eps))
	}
	dirs := make([]string, len(eps))
	for i, e := range eps {
		dirs[i] = e.Dir
	}
	calls, last := 0, 0
	res, err := tasks.Verify(t.Context(), lib, tasks.InProcess{}, dirs, tasks.VerifyOptions{RunOptions: tasks.RunOptions{Jobs: 2,
		Progress: func(done, total int) { calls++; last = done; _ = total }}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(dirs) || last != len(dirs) {
		t.Errorf("progress: %d calls, last %d, want %d", calls, last, len(dirs))
	}
	for i, r := range res {
		if r.Pass == nil {
			t.Fatalf("%s: no verdict: %+v", eps[i].Dir, r)
		}
		if fx := eps[i].Fixture; *r.Pass != fx.Pass || r.Category != fx.Category || r.Status != tasks.StatusWritten {
			t.Errorf("%s: got pass %v %q (%s), want pass %v %q", filepath.Base(eps[i].Dir), *r.Pass, r.Category, r.Status, fx.Pass, fx.Category)
		}
		if _, err := os.Stat(filepath.Join(eps[i].Dir, "gt.json")); err != nil {
			t.Errorf("no gt.json: %v", err)
		}
		for _, s := range []string{"001", "002", "003"} {
			f, err := os.Open(filepath.Join(eps[i].Dir, "screens", s+".png"))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil || img.Bounds().Dx() != 200 {
				t.Errorf("%s: screen %s: %v", eps[i].Dir, s, err)
			}
		}
		meta, err := tasks.ReadMeta(eps[i].Dir)
		if err != nil || meta.Instruction == "" {
			t.Errorf("%s: meta instruction %q (%v)", eps[i].Dir, meta.Instruction, err)
		}
	}
}
