package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// Script is one scripted episode of a task from a library: what a scripted
// agent did, ending the way one of the task's fixtures ends. A reference
// solution ends on a pass fixture; a scripted failure on a fail fixture
// with its expected category.
type Script struct {
	TaskID      string
	Instruction string
	Ending      string // fixture name: "pass/done", "fail/not_saved"
	Pass        bool
	Category    string // expected category of a failing ending
}

// Colours of the scripted screens; a simulated judge may look for them.
var (
	ScreenUnsaved = color.RGBA{0xe0, 0x40, 0x30, 0xff} // unsaved-changes marker in the title bar
	ScreenDialog  = color.RGBA{0xf0, 0xd0, 0x60, 0xff} // error dialog
	ScreenSaved   = color.RGBA{0x3a, 0x9a, 0x4a, 0xff} // "saved" mark in the status bar
)

// scriptStep is one action of a scripted episode and how its screen looks.
type scriptStep struct {
	action, text, keys string
	unsaved, dialog    bool
	saved              bool
}

// steps are the actions of s: open the target, make the edit, then what
// the ending implies (save, cancel, wrong place, crash, side effect).
func (s Script) steps() []scriptStep {
	open := scriptStep{action: "open", text: "the target named in the task"}
	edit := scriptStep{action: "type", text: "the requested change", unsaved: true}
	save := scriptStep{action: "key", keys: "ctrl+s", saved: true}
	if s.Pass {
		return []scriptStep{open, edit, save}
	}
	switch s.Category {
	case schema.CatUncommitted:
		return []scriptStep{open, edit, {action: "click", text: "Cancel", unsaved: true}}
	case schema.CatAbort:
		return []scriptStep{open, {action: "wait", text: "application not responding", dialog: true}}
	case schema.CatWrongApp:
		return []scriptStep{{action: "open", text: "another document"}, edit, save}
	case schema.CatWrongTarget:
		return []scriptStep{open, {action: "type", text: "the change, one place off", unsaved: true}, save}
	case schema.CatSideEffect:
		return []scriptStep{open, edit, save, {action: "delete", text: "an unrelated file", saved: true}}
	case schema.CatPartial:
		return []scriptStep{open, {action: "type", text: "part of the requested change", unsaved: true}, save}
	}
	return []scriptStep{open, edit, save}
}

// WriteScript writes the scripted actions (actions.jsonl) and one PNG
// screenshot per step (screens/NNN.png) into the episode folder dir, and
// records in its meta.json the number of steps and what the episode is:
// "script": "reference solution" or "scripted failure (ENDING)".
func WriteScript(dir string, s Script) error {
	steps := s.steps()
	if err := os.MkdirAll(filepath.Join(dir, "screens"), 0o755); err != nil {
		return fmt.Errorf("write script: %w", err)
	}
	var actions bytes.Buffer
	for i, st := range steps {
		screen := fmt.Sprintf("screens/%03d.png", i+1)
		png, err := renderScripted(s, steps[:i+1])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, screen), png, 0o644); err != nil {
			return fmt.Errorf("write screen: %w", err)
		}
		line := map[string]any{"step": i + 1, "action": st.action, "screen": screen}
		if st.text != "" {
			line["text"] = st.text
		}
		if st.keys != "" {
			line["keys"] = st.keys
		}
		b, _ := json.Marshal(line)
		actions.Write(append(b, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "actions.jsonl"), actions.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write actions: %w", err)
	}
	metaPath := filepath.Join(dir, "meta.json")
	b, err := os.ReadFile(metaPath)
	if err != nil {
		return fmt.Errorf("write script: %w", err)
	}
	var meta map[string]any
	if err := json.Unmarshal(b, &meta); err != nil {
		return fmt.Errorf("write script: %s: %w", metaPath, err)
	}
	meta["n_steps"] = len(steps)
	meta["script"] = "reference solution"
	if !s.Pass {
		meta["script"] = "scripted failure (" + strings.TrimPrefix(s.Ending, "fail/") + ")"
	}
	out, _ := json.Marshal(meta)
	if err := os.WriteFile(metaPath, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("write script: %w", err)
	}
	return nil
}

// renderScripted draws the screen after the last of done: an application
// window (its layout seeded by the task id), lines of content, the edit
// made so far, the unsaved marker, the saved mark, an error dialog.
func renderScripted(s Script, done []scriptStep) ([]byte, error) {
	h := fnv.New32a()
	h.Write([]byte(s.TaskID))
	seed := int(h.Sum32())
	last := done[len(done)-1]
	return drawScreen(last.unsaved, last.dialog, func(fill fillFunc) {
		for r := 0; r < 6; r++ { // lines of content
			w := 40 + (seed>>(r*3))%90
			fill(8, 20+r*11, 8+w, 23+r*11, gridLine)
		}
		for _, st := range done {
			if st.action != "type" {
				continue
			}
			row := seed % 6
			if strings.Contains(st.text, "one place off") {
				row = (row + 1) % 6
			}
			fill(8, 19+row*11, 60, 24+row*11, typed)
		}
		if last.saved {
			fill(4, screenH-8, 14, screenH-3, ScreenSaved)
		}
	})
}
