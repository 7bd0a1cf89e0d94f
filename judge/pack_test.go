package judge

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

func TestBuildConditions(t *testing.T) {
	src := screenEpisode(t, t.TempDir(), "ep1", 10, 300, 200)
	opts := PackOptions{LastK: 4, MaxImageSide: 100, MaxImages: 3}
	cases := []struct {
		cond        string
		imageSteps  []int64
		actionSteps []int64
		claim       bool
	}{
		{E1Final, []int64{10}, nil, false},
		{E2LastK, []int64{7, 8, 9, 10}, []int64{7, 8, 9, 10}, false},
		{E3Full, []int64{1, 6, 10}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, false},
		{E2Claim, []int64{7, 8, 9, 10}, []int64{7, 8, 9, 10}, true},
	}
	for _, c := range cases {
		t.Run(c.cond, func(t *testing.T) {
			p, err := Build(src, c.cond, opts)
			if err != nil {
				t.Fatal(err)
			}
			var imgs, acts []int64
			for _, im := range p.Images {
				imgs = append(imgs, im.Step)
				got, err := png.Decode(bytes.NewReader(im.Data))
				if err != nil {
					t.Fatalf("step %d: %v", im.Step, err)
				}
				if b := got.Bounds(); b.Dx() != 100 || b.Dy() != 67 || im.Width != 100 || im.Height != 67 {
					t.Errorf("step %d: %v (recorded %dx%d), want 100x67", im.Step, b, im.Width, im.Height)
				}
				if im.SHA256 != SHA256Hex(im.Data) {
					t.Errorf("step %d: sha256 does not match the bytes", im.Step)
				}
			}
			for _, s := range p.Steps {
				acts = append(acts, s.Step)
			}
			if !equalInts(imgs, c.imageSteps) || !equalInts(acts, c.actionSteps) {
				t.Errorf("images %v actions %v, want %v %v", imgs, acts, c.imageSteps, c.actionSteps)
			}
			if got := p.FinalMessage != nil; got != c.claim {
				t.Errorf("final message present = %v, want %v", got, c.claim)
			}
			enc, _ := p.Encode()
			if strings.Contains(string(enc), "Done! I saved") != c.claim {
				t.Errorf("claim text in the encoding = %v, want %v", !c.claim, c.claim)
			}
			// Same inputs, same bytes.
			p2, _ := Build(src, c.cond, opts)
			enc2, _ := p2.Encode()
			if !bytes.Equal(enc, enc2) {
				t.Error("two builds differ")
			}
		})
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDownsampleAverages(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	vals := []uint8{0, 100, 200, 40, 20, 60, 0, 0} // row-major grey levels
	for i, v := range vals {
		img.SetNRGBA(i%4, i/4, color.NRGBA{v, v, v, 255})
	}
	got := downsample(img, 2, 1)
	// Box (0..1, 0..1): 0,100,20,60 → 45; box (2..3): 200,40,0,0 → 60.
	if a, b := got.NRGBAAt(0, 0).R, got.NRGBAAt(1, 0).R; a != 45 || b != 60 {
		t.Errorf("got %d, %d; want 45, 60", a, b)
	}
}

func TestBuildChat(t *testing.T) {
	role := func(r string) *string { return &r }
	final := "I cancelled reservation ABC123 for you."
	src := &Source{EpisodeID: "tau-1", TaskText: "Cancel reservation ABC123.", FinalMessage: &final, Secrets: Secrets{Source: "natural"}}
	msgs := []struct{ role, text string }{{"user", "please cancel ABC123"}, {"assistant", "checking"}, {"tool", "reservation ABC123: active"},
		{"assistant", "cancelling"}, {"tool", "ok"}, {"assistant", final}}
	for i, m := range msgs {
		src.Actions = append(src.Actions, schema.Action{EpisodeID: "tau-1", Step: int64(i), Role: role(m.role), Text: &m.text, Extra: "{}"})
	}
	for _, c := range []struct {
		cond  string
		first int64
		n     int
	}{{E1Final, 4, 1}, {E2LastK, 1, 4}, {E3Full, 0, 5}, {E2Claim, 1, 4}} {
		p, err := Build(src, c.cond, PackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Messages) != c.n || p.Messages[0].Step != c.first || len(p.Images) != 0 {
			t.Errorf("%s: %d messages from step %d, want %d from %d", c.cond, len(p.Messages), p.Messages[0].Step, c.n, c.first)
		}
		enc, _ := p.Encode()
		if strings.Contains(string(enc), final) != (c.cond == E2Claim) {
			t.Errorf("%s: the final message is shown = %v", c.cond, c.cond != E2Claim)
		}
	}
}

func TestBuildBadInput(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		name, want string
		spoil      func(s *Source)
	}{
		{"missing screenshot", "episode ep1 (E2-lastk): step 4 screen (screens/004.png): missing", func(s *Source) {
			os.Remove(filepath.Join(s.Dir, "screens/004.png"))
		}},
		{"unreadable PNG", "episode ep1 (E2-lastk): step 3 screen (screens/003.png): not a readable PNG", func(s *Source) {
			os.WriteFile(filepath.Join(s.Dir, "screens/003.png"), []byte("\x89PNG\r\n\x1a\ngarbage"), 0o644)
		}},
		{"no task text", "episode ep1 (E2-lastk): task text: missing", func(s *Source) { s.TaskText = " " }},
		{"changed since ingest", "changed since ingest", func(s *Source) { s.Actions[3].ScreenSHA256 = sp(strings.Repeat("0", 64)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := screenEpisode(t, filepath.Join(root, c.name), "ep1", 4, 20, 20)
			c.spoil(src)
			_, err := Build(src, E2LastK, PackOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInput) {
				t.Errorf("got %v, want an input error containing %q", err, c.want)
			}
		})
	}
}

func TestParseConditions(t *testing.T) {
	if _, err := ParseConditions([]string{"E2-lastk,E9"}); !errors.Is(err, ErrUnknownCondition) {
		t.Errorf("unknown condition: %v", err)
	}
	got, err := ParseJudgeConditions([]string{"E2+claim,noguard=E2+claim"})
	if err != nil || len(got) != 2 || got[1] != (JudgeCondition{"noguard", E2Claim}) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := ParseJudgeConditions([]string{"E2-lastk=E2+claim"}); err == nil {
		t.Error("a variant named like a pack condition was accepted")
	}
}

// The opaque-RGBA fast path gives the same pixels as the generic path.
func TestDownsampleRGBAFastPath(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(testPNG(t, 37, 23, 3)))
	if err != nil {
		t.Fatal(err)
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		t.Fatalf("decoded as %T", img)
	}
	fast := downsample(rgba, 10, 6)
	generic := downsample(struct{ image.Image }{rgba}, 10, 6) // hides the concrete type
	if !bytes.Equal(fast.Pix, generic.Pix) {
		t.Error("fast and generic paths differ")
	}
}
