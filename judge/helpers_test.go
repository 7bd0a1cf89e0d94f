package judge

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

func sp(s string) *string { return &s }

// testPNG returns a w×h PNG whose pixels depend on seed.
func testPNG(t testing.TB, w, h, seed int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x + seed), uint8(y * seed), uint8(seed * 40), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// screenEpisode writes an episode folder with n steps, each with a w×h
// screenshot, and returns its source.
func screenEpisode(t testing.TB, root, id string, n, w, h int) *Source {
	t.Helper()
	dir := filepath.Join(root, id)
	if err := os.MkdirAll(filepath.Join(dir, "screens"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := &Source{EpisodeID: id, TaskID: "sheet_d14", TaskText: "In q3_budget.ods set D14 to 4500 and save the file.", Dir: dir,
		FinalMessage: sp("Done! I saved the file."), Secrets: Secrets{EpisodeID: id, Source: schema.SourceNatural}}
	for s := 1; s <= n; s++ {
		name := fmt.Sprintf("screens/%03d.png", s)
		if err := os.WriteFile(filepath.Join(dir, name), testPNG(t, w, h, s), 0o644); err != nil {
			t.Fatal(err)
		}
		act := "click"
		a := schema.Action{EpisodeID: id, Agent: "a", Step: int64(s), Action: &act, Screen: sp(name), Extra: "{}"}
		if s == n {
			a.Action, a.Keys = sp("key"), sp("ctrl+s")
		}
		src.Actions = append(src.Actions, a)
	}
	return src
}

// testLake opens a lake in a temp folder holding the given evidence rows'
// packs, built from sources, for every condition.
func testLake(t testing.TB, srcs []*Source, conds []string) *lake.Lake {
	t.Helper()
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteEvidence(context.Background(), l, srcs, EvidenceOptions{Conditions: conds, Pack: PackOptions{MaxImageSide: 64}}); err != nil {
		t.Fatal(err)
	}
	return l
}

// verdictRows reads every verdict row of the lake.
func verdictRows(t testing.TB, l *lake.Lake) []schema.Verdict {
	t.Helper()
	var out []schema.Verdict
	if err := lake.ReadTable[schema.Verdict](l, lake.Verdicts, func(rows []schema.Verdict) error {
		out = append(out, rows...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func evidenceRows(t testing.TB, l *lake.Lake) []schema.Evidence {
	t.Helper()
	var out []schema.Evidence
	if err := lake.ReadTable[schema.Evidence](l, lake.Evidence, func(rows []schema.Evidence) error {
		out = append(out, rows...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}
