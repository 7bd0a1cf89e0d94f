package tasks

import (
	"fmt"
	"path/filepath"
	"strings"
)

// FixtureEpisode is one episode folder made from a fixture.
type FixtureEpisode struct {
	Dir      string
	Fixture  Fixture
	TaskID   string
	Expected string // "pass" or the expected category
}

// FixtureEpisodes writes copies episode folders per fixture of the library
// (or of ids) under outDir: meta.json (agent "fixture", source natural, the
// task's instruction, a final message that claims success), a three-step
// actions.jsonl with PNG screenshots (the same for every fixture of a task)
// and final_state.tar.zst of the fixture's state. They feed `trustlake verify`, the demo and benchmarks
// with real final states whose verdicts are known.
func FixtureEpisodes(lib *Library, ids []string, outDir string, copies int) ([]FixtureEpisode, error) {
	if copies <= 0 {
		copies = 1
	}
	if len(ids) == 0 {
		ids = lib.IDs()
	}
	claim := "Done! I completed the task and saved the result."
	var out []FixtureEpisode
	for _, id := range ids {
		t, err := lib.Task(id)
		if err != nil {
			return out, err
		}
		for _, fx := range t.Fixtures {
			for k := 1; k <= copies; k++ {
				name := fmt.Sprintf("%s__%s__%d", id, strings.ReplaceAll(fx.Name, "/", "-"), k)
				dir := filepath.Join(outDir, name)
				steps := int64(3)
				meta := Meta{EpisodeID: name, TaskID: id, Source: "natural", Agent: Agent{Name: "fixture"}, FinalMessage: &claim,
					NSteps: &steps, Instruction: t.Instruction}
				if err := writeFixtureScreens(dir, id); err != nil {
					return out, err
				}
				if err := BuildEpisode(dir, meta, fx.Dir, []byte(fixtureActions)); err != nil {
					return out, err
				}
				want := "pass"
				if !fx.Pass {
					want = fx.Category
				}
				out = append(out, FixtureEpisode{Dir: dir, Fixture: fx, TaskID: id, Expected: want})
			}
		}
	}
	return out, nil
}
