package judge

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// GuardVersion names the leakage rules a pack passed; the evidence table
// records it and the checklist item evidence_leakage checks it.
const GuardVersion = "leakage-guard/1"

// Secrets is what a pack must never reveal about its episode (seed §3.5):
// the verifier's output, the files the verifier read, the source label,
// the failure category and, for a perturbation, its parent.
type Secrets struct {
	EpisodeID       string   // forbidden in the pack when the episode is perturbed (its id may name the parent)
	Source          string   // natural, weakened, perturbed
	Perturbation    string   // the recipe name of a perturbed episode
	ParentEpisodeID string   // the episode a perturbation was made from
	Categories      []string // the verifier's and the labels' categories, raw and normalised
	VerifierOutput  []string // diagnostics strings, verifier and final-state hashes
}

// reservedFiles are episode files a screenshot may never be: the verifier
// reads the final state, writes gt.json, and meta.json holds the source.
var reservedFiles = map[string]bool{"meta.json": true, "gt.json": true, "final_state.tar.zst": true, "actions.jsonl": true}

// checkScreenPath refuses a screenshot path that leaves the episode folder
// or names a file the verifier reads or writes.
func checkScreenPath(p string) error {
	clean := path.Clean(strings.ReplaceAll(p, "\\", "/"))
	switch {
	case p == "" || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../"):
		return fmt.Errorf("%w: path %q leaves the episode folder", ErrLeak, p)
	case reservedFiles[path.Base(clean)] || strings.HasPrefix(path.Base(clean), "final_state"):
		return fmt.Errorf("%w: %q is a file the verifier reads or writes, not a screenshot", ErrLeak, p)
	}
	return nil
}

var wordRE = regexp.MustCompile(`[A-Za-z0-9_-]+`)

// Guard refuses a pack whose text reveals a secret: the verifier's output,
// the failure category, a non-natural source label or perturbation recipe,
// or the parent (or id) of a perturbed episode. It names the field.
func Guard(p *Pack, s Secrets) error {
	type forbid struct{ what, s string }
	var bad []forbid
	for _, c := range schema.Categories {
		bad = append(bad, forbid{"the failure category", c})
	}
	for _, c := range s.Categories {
		if len(c) >= 4 {
			bad = append(bad, forbid{"the failure category", c})
		}
	}
	task := strings.ToLower(p.TaskText)
	for _, v := range s.VerifierOutput {
		// A value the task text itself states (the requested homepage, the
		// expected email) is given to every judge, not leaked by the verifier.
		if len(v) >= 8 && !strings.Contains(task, strings.ToLower(v)) {
			bad = append(bad, forbid{"the verifier's output", v})
		}
	}
	if s.ParentEpisodeID != "" {
		bad = append(bad, forbid{"the parent episode of a perturbation", s.ParentEpisodeID})
	}
	perturbed := s.Source != "" && s.Source != schema.SourceNatural
	if perturbed && s.EpisodeID != "" {
		bad = append(bad, forbid{"the id of a perturbed episode", s.EpisodeID})
	}
	if len(s.Perturbation) >= 4 {
		bad = append(bad, forbid{"the perturbation recipe", s.Perturbation})
	}
	check := func(field, text string) error {
		low := strings.ToLower(text)
		for _, b := range bad {
			if strings.Contains(low, strings.ToLower(b.s)) {
				return fmt.Errorf("%w %s (%q) in %s", ErrLeak, b.what, b.s, field)
			}
		}
		if perturbed {
			for _, w := range wordRE.FindAllString(low, -1) {
				if w == s.Source {
					return fmt.Errorf("%w the source label (%q) in %s", ErrLeak, s.Source, field)
				}
			}
		}
		return nil
	}
	if err := check("task_text", p.TaskText); err != nil {
		return err
	}
	for i, st := range p.Steps {
		if err := check(fmt.Sprintf("steps[%d] (step %d)", i, st.Step), st.Action); err != nil {
			return err
		}
	}
	for i, m := range p.Messages {
		if err := check(fmt.Sprintf("messages[%d] (step %d)", i, m.Step), m.Text); err != nil {
			return err
		}
	}
	if p.FinalMessage != nil {
		if err := check("final_message", *p.FinalMessage); err != nil {
			return err
		}
	}
	return nil
}

// diagnosticStrings returns the string leaves of a verifier's diagnostics
// JSON and the JSON itself when it is not trivial.
func diagnosticStrings(diag string) []string {
	var v any
	if json.Unmarshal([]byte(diag), &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case string:
			out = append(out, t)
		case []any:
			for _, e := range t {
				walk(e)
			}
		case map[string]any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	if len(diag) > 16 {
		out = append(out, diag)
	}
	return out
}
