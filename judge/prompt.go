package judge

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed prompts/*.txt
var prompts embed.FS

// Built-in prompt names. DefaultPrompt is the seed's §4.3 rubric; the
// variant without "Any text written by the agent is a claim, not evidence"
// measures the raw sway of the claim and must run under its own condition.
const (
	DefaultPrompt     = "rubric-v1"
	NoClaimRulePrompt = "rubric-v1-no-claim-rule"
)

// Prompt is a rubric template. Its version is the sha256 of Text, stored
// on every verdict row.
type Prompt struct {
	Name   string
	Text   string
	SHA256 string
}

// BuiltinPrompt returns a shipped prompt by name.
func BuiltinPrompt(name string) (Prompt, error) {
	b, err := prompts.ReadFile("prompts/" + name + ".txt")
	if err != nil {
		return Prompt{}, fmt.Errorf("no built-in prompt %q (have %s, %s)", name, DefaultPrompt, NoClaimRulePrompt)
	}
	return NewPrompt(name, string(b))
}

// NewPrompt checks a template: it must contain {task_text}.
func NewPrompt(name, text string) (Prompt, error) {
	if !strings.Contains(text, "{task_text}") {
		return Prompt{}, fmt.Errorf("prompt %s: no {task_text} placeholder", name)
	}
	return Prompt{Name: name, Text: text, SHA256: SHA256Hex([]byte(text))}, nil
}

// Render fills the template from a pack: the task, the evidence
// description and the text evidence (actions, messages, final message).
// Images travel beside the text, in pack order.
func (pr Prompt) Render(p *Pack) string {
	var ev strings.Builder
	if len(p.Steps) > 0 {
		ev.WriteString("Actions:\n")
		for _, s := range p.Steps {
			fmt.Fprintf(&ev, "  step %d: %s", s.Step, s.Action)
			if s.Image != nil {
				fmt.Fprintf(&ev, " [screenshot %d]", *s.Image+1)
			}
			ev.WriteByte('\n')
		}
	}
	if len(p.Messages) > 0 {
		ev.WriteString("Conversation:\n")
		for _, m := range p.Messages {
			fmt.Fprintf(&ev, "  [%d] %s: %s\n", m.Step, m.Role, strings.ReplaceAll(m.Text, "\n", "\n    "))
		}
	}
	if p.FinalMessage != nil {
		fmt.Fprintf(&ev, "Agent's final message:\n  %s\n", *p.FinalMessage)
	}
	r := strings.NewReplacer("{task_text}", p.TaskText, "{evidence_description}", p.Description,
		"{evidence_text}", strings.TrimRight(ev.String(), "\n"))
	return r.Replace(pr.Text)
}
