package judge

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// TestGuardNearVariants: a secret written another way is still a leak:
// case, separators, non-breaking hyphens and spaces, doubled spaces,
// compatibility forms, the recipe name without its label's path, a hash
// prefix (issue 24 item 10).
func TestGuardNearVariants(t *testing.T) {
	const hash = "3f2a9c0d4b5e6f718293a4b5c6d7e8f90123456789abcdef0123456789abcdef"
	cases := []struct {
		name, want string
		leak       func(s *Source)
	}{
		{"source label in a compound word", "the source label", func(s *Source) {
			s.Secrets.Source = schema.SourcePerturbed
			s.Actions[3].Text = sp("Perturbed-copy of the run")
		}},
		{"category with underscore", "the failure category", func(s *Source) { s.Actions[3].Text = sp("F_UNCOMMITTED") }},
		{"category with a non-breaking hyphen", "the failure category", func(s *Source) { s.Actions[3].Text = sp("f\u2011uncommitted") }},
		{"category in full-width letters", "the failure category", func(s *Source) { s.Actions[3].Text = sp("ＦＵＮＣＯＭＭＩＴＴＥＤ") }},
		{"label category with a no-break space", "the failure category", func(s *Source) {
			s.Secrets.Categories = []string{"unsaved edit"}
			s.Actions[3].Observation = sp("label: Unsaved\u00a0Edit")
		}},
		{"recipe name alone", "the perturbation recipe", func(s *Source) {
			s.Secrets.Source, s.Secrets.Perturbation = schema.SourcePerturbed, "skip_save:Documents/q3_budget.ods"
			s.Actions[3].Text = sp("skip_save")
		}},
		{"recipe name spaced", "the perturbation recipe", func(s *Source) {
			s.Secrets.Source, s.Secrets.Perturbation = schema.SourcePerturbed, "skip_save:Documents/q3_budget.ods"
			s.Actions[3].Text = sp("applied Skip Save here")
		}},
		{"diagnostics with doubled spaces", "the verifier's output", func(s *Source) {
			s.Secrets.VerifierOutput = diagnosticStrings(`{"error":"target file missing"}`)
			s.Actions[3].Observation = sp("verifier:  target  file\tmissing")
		}},
		{"16-hex prefix of the verifier hash", "the verifier's output", func(s *Source) {
			s.Secrets.VerifierOutput = []string{hash}
			s.Actions[3].Text = sp("verifier " + hash[:16])
		}},
		{"12-hex prefix, upper case, in a longer word", "the verifier's output", func(s *Source) {
			s.Secrets.VerifierOutput = []string{hash}
			s.Actions[3].Text = sp("sha=" + strings.ToUpper(hash[:12]) + "zz")
		}},
		{"parent id with other separators", "the parent episode", func(s *Source) {
			s.Secrets.Source, s.Secrets.ParentEpisodeID = schema.SourcePerturbed, "ep-parent-0042"
			s.Actions[3].Text = sp("replaying EP_PARENT_0042")
		}},
	}
	root := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := screenEpisode(t, filepath.Join(root, c.name), "ep1", 4, 20, 20)
			c.leak(src)
			_, err := Build(src, E2LastK, PackOptions{})
			if !errors.Is(err, ErrLeak) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want a refused leak of %q", err, c.want)
			}
		})
	}
}

// TestGuardFoldKeepsWordBoundaries: folding does not make ordinary words
// leaks: "if abort" is not F-ABORT, an 11-hex run is not a hash prefix, and
// a recipe name the task text states is given to every judge.
func TestGuardFoldKeepsWordBoundaries(t *testing.T) {
	const hash = "3f2a9c0d4b5e6f718293a4b5c6d7e8f90123456789abcdef0123456789abcdef"
	s := Secrets{Source: schema.SourcePerturbed, Perturbation: "save_as_copy:Documents/a.ods", VerifierOutput: []string{hash, "target file missing"}}
	p := &Pack{TaskText: "Open a.ods, use Save As Copy, and close it.", Steps: []Step{
		{Step: 1, Action: "type \"if abort is pressed, stop\""},
		{Step: 2, Action: "note " + hash[:11]},
		{Step: 3, Action: "clicked Save As Copy"},
		{Step: 4, Action: "the target filename is missing"},
	}}
	if err := Guard(p, s); err != nil {
		t.Errorf("ordinary text refused: %v", err)
	}
}

func TestFoldContains(t *testing.T) {
	for _, c := range []struct {
		text, secret string
		want         bool
	}{
		{"status F-ABORT.", "F-ABORT", true},
		{"if abort", "F-ABORT", false},
		{"fabort", "F-ABORT", true},
		{"F\u00adUN\u200bCOMMITTED", "F-UNCOMMITTED", true},
		{"xF-UNCOMMITTED", "F-UNCOMMITTED", false},
		{"ep12", "ep1", false},
		{"ﬁle  missing", "file missing", true},
	} {
		if got := fold(c.text).contains(key(c.secret)); got != c.want {
			t.Errorf("fold(%q).contains(%q) = %v, want %v", c.text, c.secret, got, c.want)
		}
	}
}
