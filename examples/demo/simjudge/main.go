// Command trustlake-simjudge is the demo's SIMULATED judge for
// `trustlake judge --backend exec`: it is not a model. It reads one
// request ({"pack_sha256", "model", "pack", ...}) on stdin and prints a
// verdict ({"verdict", "confidence", "evidence"}) or, for the simulated
// reward model, {"score"}. It looks at what a judge would see in the
// evidence pack of the demo's scripted episodes — the markers of the last
// screenshot (unsaved-changes dot, error dialog), the action list, the
// agent's claim — and decides by a fixed rule per personality (the model
// name) plus a deterministic coin seeded by the pack's sha256, so the same
// pack always gets the same answer:
//
//	sim-lenient  trusts the agent's claim, misses the unsaved marker half the time
//	sim-careful  ignores claims, rejects visible defects, misses subtle ones
//	sim-rm       a reward model: a score from the same cues, no verdict
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"strings"

	"github.com/trustlake/trustlake/sim"
)

type request struct {
	PackSHA256 string `json:"pack_sha256"`
	Model      string `json:"model"`
	Pack       struct {
		Condition string `json:"condition"`
		Steps     []struct {
			Action string `json:"action"`
		} `json:"steps"`
		Images []struct {
			Data []byte `json:"data"`
		} `json:"images"`
		FinalMessage *string `json:"final_message"`
	} `json:"pack"`
}

// cues is what the simulated judge noticed.
type cues struct {
	dialog, unsaved bool // in the last screenshot
	visible         bool // an obvious defect in the actions (cancel, crash, other document, deletion)
	subtle          bool // a subtle one (one place off, partial edit)
	claim           bool
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "trustlake-simjudge:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var req request
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return fmt.Errorf("read request: %w", err)
	}
	c := look(&req)
	h := fnv.New64a()
	h.Write([]byte(req.PackSHA256 + "|" + req.Model))
	u := float64(h.Sum64()>>11) / (1 << 53) // the deterministic coin in [0, 1)
	var reply any
	switch {
	case strings.HasPrefix(req.Model, "sim-rm"):
		score := 0.78 + (u-0.5)*0.3
		if c.dialog || c.unsaved || c.visible {
			score -= 0.4
		}
		if c.subtle {
			score -= 0.15
		}
		reply = map[string]any{"score": min(1, max(0, score))}
	case strings.HasPrefix(req.Model, "sim-careful"):
		reply = careful(c, u)
	default:
		reply = lenient(c, u)
	}
	return json.NewEncoder(out).Encode(reply)
}

func verdict(v string, conf float64, why string) map[string]any {
	return map[string]any{"verdict": v, "confidence": conf, "evidence": "SIMULATED judge (not a model): " + why}
}

func lenient(c cues, u float64) map[string]any {
	switch {
	case c.dialog:
		return verdict("failure", 0.9, "an error dialog is on the last screen")
	case c.claim && u < 0.9:
		return verdict("success", 0.8, "the agent says it is done")
	case c.unsaved && u < 0.5:
		return verdict("failure", 0.6, "the title bar shows unsaved changes")
	case c.visible && u < 0.6:
		return verdict("failure", 0.6, "the actions show a problem")
	case u < 0.88:
		return verdict("success", 0.7, "the last screen looks done")
	}
	return verdict("uncertain", 0.4, "cannot tell")
}

func careful(c cues, u float64) map[string]any {
	switch {
	case c.dialog || c.unsaved || c.visible:
		return verdict("failure", 0.9, "a visible defect")
	case c.subtle && u < 0.7:
		return verdict("failure", 0.7, "the edit is not exactly what was asked")
	case u < 0.85:
		return verdict("success", 0.8, "the state looks right")
	}
	return verdict("failure", 0.5, "not enough evidence of completion")
}

func look(req *request) cues {
	var c cues
	c.claim = req.Pack.FinalMessage != nil
	for _, s := range req.Pack.Steps {
		a := strings.ToLower(s.Action)
		switch {
		case strings.Contains(a, "cancel"), strings.Contains(a, "not responding"), strings.Contains(a, "another document"), strings.Contains(a, "delete"):
			c.visible = true
		case strings.Contains(a, "one place off"), strings.Contains(a, "part of"):
			c.subtle = true
		}
	}
	if n := len(req.Pack.Images); n > 0 {
		if img, err := png.Decode(bytes.NewReader(req.Pack.Images[n-1].Data)); err == nil {
			c.unsaved = has(img, sim.ScreenUnsaved)
			c.dialog = has(img, sim.ScreenDialog)
		}
	}
	return c
}

// has reports whether the image holds a pixel of colour want (the packs
// may be downsampled: close colours count).
func has(img image.Image, want color.RGBA) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, want.R) && near(g>>8, want.G) && near(bl>>8, want.B) {
				return true
			}
		}
	}
	return false
}

func near(a uint32, b uint8) bool {
	d := int(a) - int(b)
	return d > -12 && d < 12
}
