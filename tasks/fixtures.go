package tasks

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
)

// fixtureActions is the trajectory written into fixture episodes: open the
// application, make the change, save. Every fixture of a task gets the same
// trajectory and screenshots, passing or not: what the screen shows does not
// say whether the state was persisted (seed §2), which is what a judge
// reading only the screen has to cope with.
const fixtureActions = `{"step":1,"action":"click","screen":"screens/001.png"}
{"step":2,"action":"type","text":"(edit)","screen":"screens/002.png"}
{"step":3,"action":"key","keys":"ctrl+s","screen":"screens/003.png"}
`

// writeFixtureScreens renders the three screenshots of a fixture episode
// (200×125 PNG: a window whose colours come from the task id, with more
// content at each step) into dir/screens.
func writeFixtureScreens(dir, taskID string) error {
	h := fnv.New32a()
	h.Write([]byte(taskID))
	seed := h.Sum32()
	accent := color.RGBA{uint8(seed), uint8(seed >> 8), uint8(seed >> 16), 0xff}
	if err := os.MkdirAll(filepath.Join(dir, "screens"), 0o755); err != nil {
		return fmt.Errorf("fixture screens: %w", err)
	}
	for step := 1; step <= 3; step++ {
		const w, ht = 200, 125
		img := image.NewRGBA(image.Rect(0, 0, w, ht))
		fill := func(x0, y0, x1, y1 int, c color.RGBA) {
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					img.SetRGBA(x, y, c)
				}
			}
		}
		fill(0, 0, w, ht, color.RGBA{0xf4, 0xf4, 0xf4, 0xff})
		fill(0, 0, w, 14, accent)
		for row := 0; row < 6; row++ {
			width := 40 + int((seed>>uint(row*3))%100)
			if row >= 2*step {
				width = 0 // later steps show more content
			}
			fill(10, 24+row*15, 10+width, 32+row*15, color.RGBA{0x50, 0x50, 0x50, 0xff})
		}
		if step == 3 {
			fill(w-60, ht-22, w-10, ht-8, color.RGBA{0x3c, 0xa0, 0x50, 0xff}) // a "saved" toast
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return fmt.Errorf("fixture screens: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, "screens", fmt.Sprintf("%03d.png", step)), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("fixture screens: %w", err)
		}
	}
	return nil
}

// FixtureEpisode is one episode folder made from a fixture.
type FixtureEpisode struct {
	Dir     string
	Fixture Fixture
	TaskID  string
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
				out = append(out, FixtureEpisode{Dir: dir, Fixture: fx, TaskID: id})
			}
		}
	}
	return out, nil
}
