package judge

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// GuardVersion names the leakage rules a pack passed; the evidence table
// records it and the checklist item evidence_leakage checks it.
const GuardVersion = "leakage-guard/2"

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

// hashPrefix is how many leading hex digits of a verifier or final-state
// hash count as the hash: a pack holding 12 of them names the hash.
const hashPrefix = 12

// Guard refuses a pack whose text reveals a secret: the verifier's output
// (a hash also by a prefix of hashPrefix hex digits), the failure category,
// a non-natural source label, the perturbation recipe (its label or its
// name alone), or the parent (or id) of a perturbed episode. Text and
// secrets are compared folded (see fold: compatibility form, case,
// separators and whitespace runs do not matter), a secret matching only
// from a token start to a token end. It names the field.
func Guard(p *Pack, s Secrets) error {
	type forbid struct {
		what, s string
		key     string // folded secret, matched at token boundaries
		hex     string // hash prefix, matched anywhere
	}
	var bad []forbid
	add := func(what, secret string) {
		if k := key(secret); k != "" {
			bad = append(bad, forbid{what: what, s: secret, key: k})
		}
	}
	for _, c := range schema.Categories {
		add("the failure category", c)
	}
	for _, c := range s.Categories {
		if len(c) >= 4 {
			add("the failure category", c)
		}
	}
	task := fold(p.TaskText)
	for _, v := range s.VerifierOutput {
		if h := strings.ToLower(strings.TrimSpace(v)); len(h) >= 32 && strings.Trim(h, "0123456789abcdef") == "" {
			bad = append(bad, forbid{what: "the verifier's output", s: v, hex: h[:hashPrefix]})
			continue
		}
		// A value the task text itself states (the requested homepage, the
		// expected email) is given to every judge, not leaked by the verifier.
		if k := key(v); len(v) >= 8 && len(k) >= 6 && !task.contains(k) {
			bad = append(bad, forbid{what: "the verifier's output", s: v, key: k})
		}
	}
	if s.ParentEpisodeID != "" {
		add("the parent episode of a perturbation", s.ParentEpisodeID)
	}
	perturbed := s.Source != "" && s.Source != schema.SourceNatural
	if perturbed && s.EpisodeID != "" {
		add("the id of a perturbed episode", s.EpisodeID)
	}
	if perturbed {
		add("the source label", s.Source)
	}
	if len(s.Perturbation) >= 4 {
		add("the perturbation recipe", s.Perturbation)
		// The label is NAME[:PATH[!CELL]]; the recipe name alone names it too,
		// unless the task text says it ("save as copy").
		if name, _, _ := strings.Cut(s.Perturbation, ":"); name != s.Perturbation && len(name) >= 4 && !task.contains(key(name)) {
			add("the perturbation recipe", name)
		}
	}
	fields := [][2]string{{"task_text", p.TaskText}}
	for i, st := range p.Steps {
		fields = append(fields, [2]string{fmt.Sprintf("steps[%d] (step %d)", i, st.Step), st.Action})
	}
	for i, m := range p.Messages {
		fields = append(fields, [2]string{fmt.Sprintf("messages[%d] (step %d)", i, m.Step), m.Text})
	}
	if p.FinalMessage != nil {
		fields = append(fields, [2]string{"final_message", *p.FinalMessage})
	}
	for _, fl := range fields {
		f := fold(fl[1])
		for _, b := range bad {
			if b.hex != "" && strings.Contains(f.s, b.hex) || b.key != "" && f.contains(b.key) {
				return fmt.Errorf("%w %s (%q) in %s", ErrLeak, b.what, b.s, fl[0])
			}
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
