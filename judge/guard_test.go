package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// Each leakage channel of seed §3.5 gets one attempt to leak, which the
// guard must refuse, naming the channel and the field.
func TestGuardRefusesEveryChannel(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		channel string
		cond    string
		want    string
		leak    func(s *Source)
	}{
		{"verifier output", E2LastK, "the verifier's output", func(s *Source) {
			s.Secrets.VerifierOutput = diagnosticStrings(`{"error":"target file missing","D14":4500}`)
			s.Actions[3].Observation = sp("verifier: target file missing")
		}},
		{"verifier hash", E3Full, "the verifier's output", func(s *Source) {
			s.Secrets.VerifierOutput = []string{strings.Repeat("ab", 32)}
			s.Actions[0].Text = sp("sha " + strings.Repeat("ab", 32))
		}},
		{"files the verifier reads", E2LastK, "verifier reads or writes", func(s *Source) {
			s.Actions[3].Screen = sp("final_state.tar.zst")
		}},
		{"gt.json as a screenshot", E2LastK, "verifier reads or writes", func(s *Source) { s.Actions[2].Screen = sp("screens/../gt.json") }},
		{"a path out of the folder", E2LastK, "leaves the episode folder", func(s *Source) { s.Actions[2].Screen = sp("../other/screens/001.png") }},
		{"source label", E2Claim, "the source label", func(s *Source) {
			s.Secrets.Source = schema.SourcePerturbed
			s.FinalMessage = sp("Done (perturbed replay).")
		}},
		{"perturbation recipe", E2LastK, "the perturbation recipe", func(s *Source) {
			s.Secrets.Source, s.Secrets.Perturbation = schema.SourcePerturbed, "skip_save"
			s.Actions[3].Text = sp("skip_save")
		}},
		{"category code", E2LastK, "the failure category", func(s *Source) { s.Actions[2].Text = sp("F-UNCOMMITTED") }},
		{"category from labels", E3Full, "the failure category", func(s *Source) {
			s.Secrets.Categories = []string{"unsaved-edit"}
			s.Actions[1].Observation = sp("label: unsaved-edit")
		}},
		{"parent episode", E2LastK, "the parent episode", func(s *Source) {
			s.Secrets.Source, s.Secrets.ParentEpisodeID = schema.SourcePerturbed, "ep-parent-0042"
			s.Actions[3].Text = sp("replaying ep-parent-0042")
		}},
		{"perturbed episode id", E2LastK, "the id of a perturbed episode", func(s *Source) {
			s.Secrets.Source = schema.SourcePerturbed
			s.Actions[3].Text = sp("episode ep1 here")
		}},
		{"task text", E1Final, "the failure category", func(s *Source) { s.TaskText += " (F-WRONGTARGET)" }},
	}
	for _, c := range cases {
		t.Run(c.channel, func(t *testing.T) {
			src := screenEpisode(t, filepath.Join(root, c.channel), "ep1", 4, 20, 20)
			if _, err := Build(src, c.cond, PackOptions{}); err != nil {
				t.Fatalf("clean episode refused: %v", err)
			}
			c.leak(src)
			_, err := Build(src, c.cond, PackOptions{})
			if !errors.Is(err, ErrLeak) || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "episode ep1") {
				t.Errorf("got %v, want a refused leak of %q naming the episode", err, c.want)
			}
		})
	}
}

// A clean pack carries none of the secrets, whatever the condition: no
// episode id, source, category, parent or verifier output.
func TestPackCarriesNoSecrets(t *testing.T) {
	src := screenEpisode(t, t.TempDir(), "sim-t1-perturbed-of-ep0", 5, 20, 20)
	src.Secrets = Secrets{EpisodeID: src.EpisodeID, Source: schema.SourcePerturbed, Perturbation: "skip_save", ParentEpisodeID: "ep0",
		Categories: []string{schema.CatUncommitted}, VerifierOutput: []string{"D14 unchanged in the saved file"}}
	for _, cond := range Conditions {
		p, err := Build(src, cond, PackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := p.Encode()
		for _, s := range []string{src.EpisodeID, "perturbed", "skip_save", schema.CatUncommitted, "D14 unchanged", `"source"`, `"category"`} {
			if strings.Contains(string(enc), s) {
				t.Errorf("%s: pack contains %q", cond, s)
			}
		}
	}
}

// One leaking episode among clean ones: nothing is recorded, no pack file
// is left behind.
func TestWriteEvidenceAllOrNothing(t *testing.T) {
	root := t.TempDir()
	good := screenEpisode(t, root, "ep1", 4, 20, 20)
	bad := screenEpisode(t, root, "ep2", 4, 20, 20)
	bad.Actions[1].Text = sp("F-PARTIAL")
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = WriteEvidence(context.Background(), l, []*Source{good, bad}, EvidenceOptions{})
	var be *BuildErrors
	if !errors.As(err, &be) || len(be.Errs) != 3 { // E2-lastk, E2+claim and E3-full show step 2
		t.Fatalf("got %v, want three refused packs", err)
	}
	if !errors.Is(err, ErrInput) {
		t.Fatalf("got %v, want an input error", err)
	}
	if rows := evidenceRows(t, l); len(rows) != 0 {
		t.Errorf("%d evidence rows recorded", len(rows))
	}
	var files []string
	filepath.WalkDir(filepath.Join(l.Root(), StoreDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 0 {
		t.Errorf("pack files left: %v", files)
	}
}
