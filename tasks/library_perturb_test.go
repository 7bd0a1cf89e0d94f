package tasks

import (
	"path/filepath"
	"testing"
)

// TestLibraryPerturbationsCaught applies every declared perturbation of every
// declarative task to its first pass fixture and checks that the task's own
// verifier catches it (in process).
func TestLibraryPerturbationsCaught(t *testing.T) {
	lib := loadLibrary(t)
	var dirs []string
	for _, id := range lib.IDs() {
		task := lib.Tasks[id]
		if !task.Declarative() || len(task.Perturbations) == 0 {
			continue
		}
		dir := filepath.Join(t.TempDir(), "ep_"+id)
		var pass string
		for _, f := range task.Fixtures {
			if f.Pass {
				pass = f.Dir
				break
			}
		}
		if err := BuildEpisode(dir, Meta{EpisodeID: "ep_" + id, TaskID: id, Agent: Agent{Name: "fixture"}}, pass, nil); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	res, err := Perturb(t.Context(), lib, InProcess{}, dirs, t.TempDir(), RunOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < len(dirs) {
		t.Fatalf("%d results for %d episodes", len(res), len(dirs))
	}
	for _, r := range res {
		if r.Status != PerturbCaught {
			t.Errorf("%s %s: %s %s", r.TaskID, r.Perturbation, r.Status, r.Err)
		}
	}
}
