package judge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// Source is what the builder reads for one episode: lake rows plus the
// episode folder holding the screenshots.
type Source struct {
	EpisodeID    string
	TaskID       string
	TaskText     string
	Dir          string          // episode folder; screenshots are relative to it
	Actions      []schema.Action // sorted by step
	FinalMessage *string
	Secrets      Secrets
}

// InputError is a problem with one episode's input: it names the episode,
// the condition (when one is being built) and the field.
type InputError struct {
	EpisodeID string
	Condition string
	Field     string
	Err       error
}

func (e *InputError) Error() string {
	where := "episode " + e.EpisodeID
	if e.Condition != "" {
		where += " (" + e.Condition + ")"
	}
	return fmt.Sprintf("%s: %s: %v", where, e.Field, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// Is makes every InputError match ErrInput.
func (e *InputError) Is(target error) bool { return target == ErrInput }

// Build builds the pack of one episode under one condition and checks it
// with Guard. It reads screenshots from src.Dir.
func Build(src *Source, cond string, opts PackOptions) (*Pack, error) {
	return build(src, cond, opts, imageCache{})
}

// imageCache holds the screenshots already prepared for one episode, so its
// conditions share one decode and downsample per screenshot.
type imageCache map[string]Image

func build(src *Source, cond string, opts PackOptions, cache imageCache) (*Pack, error) {
	opts.applyDefaults()
	fail := func(field string, err error) error {
		return &InputError{EpisodeID: src.EpisodeID, Condition: cond, Field: field, Err: err}
	}
	if !slices.Contains(Conditions, cond) {
		return nil, fail("condition", fmt.Errorf("%w %q", ErrUnknownCondition, cond))
	}
	if strings.TrimSpace(src.TaskText) == "" {
		return nil, fail("task text", errors.New("missing (give --tasks DIR with task.json files, or \"instruction\" in meta.json)"))
	}
	p := &Pack{Format: PackFormat, Condition: cond, TaskText: src.TaskText}
	chat := slices.ContainsFunc(src.Actions, func(a schema.Action) bool { return a.Role != nil }) &&
		!slices.ContainsFunc(src.Actions, func(a schema.Action) bool { return a.Screen != nil })
	// The agent's final message is the claim: only E2+claim shows it, in
	// its own field, never inside the trajectory.
	acts, final := withoutFinalMessage(src.Actions, src.FinalMessage)
	if chat {
		buildChat(p, acts, cond, opts)
	} else if err := buildScreens(p, src, acts, cond, opts, cache); err != nil {
		return nil, err
	}
	if cond == E2Claim {
		p.FinalMessage = &final
	}
	if err := Guard(p, src.Secrets); err != nil {
		return nil, fail("pack", err)
	}
	return p, nil
}

// window returns the indexes of the actions a condition shows.
func window(n int, cond string, k int) (lo int) {
	switch cond {
	case E1Final:
		return max(0, n-1)
	case E2LastK, E2Claim:
		return max(0, n-k)
	}
	return 0
}

func buildScreens(p *Pack, src *Source, acts []schema.Action, cond string, opts PackOptions, cache imageCache) error {
	lo := window(len(acts), cond, opts.LastK)
	shown := acts[lo:]
	if cond == E1Final {
		// The final screenshot: the last step that has one.
		shown = nil
		for i := len(acts) - 1; i >= 0; i-- {
			if acts[i].Screen != nil {
				shown = acts[i : i+1]
				break
			}
		}
	}
	var withScreen []int
	for i := range shown {
		if shown[i].Screen != nil {
			withScreen = append(withScreen, i)
		}
	}
	if cond == E3Full && len(withScreen) > opts.MaxImages {
		withScreen = subsample(withScreen, opts.MaxImages)
	}
	imgAt := map[int]int{}
	for _, i := range withScreen {
		a := &shown[i]
		img, ok := cache[*a.Screen]
		if !ok {
			var err error
			if img, err = readScreen(src, a, opts.MaxImageSide); err != nil {
				return &InputError{EpisodeID: src.EpisodeID, Condition: cond, Field: fmt.Sprintf("step %d screen (%s)", a.Step, *a.Screen), Err: err}
			}
			cache[*a.Screen] = img
		}
		imgAt[i] = len(p.Images)
		p.Images = append(p.Images, img)
	}
	if cond == E1Final && len(p.Images) == 0 && len(acts) > 0 {
		shown = acts[len(acts)-1:] // no screenshot at all: the final action instead
	}
	p.Description = describe(cond, len(p.Images), len(shown), false)
	if cond == E1Final && len(p.Images) > 0 {
		return nil
	}
	for i := range shown {
		st := Step{Step: shown[i].Step, Action: renderAction(&shown[i])}
		if j, ok := imgAt[i]; ok {
			st.Image = &j
		}
		p.Steps = append(p.Steps, st)
	}
	return nil
}

// subsample keeps n of idx, evenly spaced, always the last.
func subsample(idx []int, n int) []int {
	out := make([]int, 0, n)
	m := len(idx)
	for j := 0; j < n; j++ {
		out = append(out, idx[(m-1)-(n-1-j)*(m-1)/max(n-1, 1)])
	}
	return out
}

func readScreen(src *Source, a *schema.Action, maxSide int) (Image, error) {
	if err := checkScreenPath(*a.Screen); err != nil {
		return Image{}, err
	}
	name := filepath.Join(src.Dir, filepath.FromSlash(*a.Screen))
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Image{}, fmt.Errorf("missing (looked for %s)", name)
	case err != nil:
		return Image{}, err
	case !fi.Mode().IsRegular():
		return Image{}, fmt.Errorf("%w: %s is not a regular file", ErrLeak, name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return Image{}, err
	}
	if a.ScreenSHA256 != nil && *a.ScreenSHA256 != "" && SHA256Hex(data) != *a.ScreenSHA256 {
		return Image{}, fmt.Errorf("%s changed since ingest (sha256 differs from the actions table)", name)
	}
	out, w, h, err := prepareImage(data, maxSide)
	if err != nil {
		return Image{}, err
	}
	return Image{Step: a.Step, MediaType: "image/png", Width: w, Height: h, SHA256: SHA256Hex(out), Data: out}, nil
}

func buildChat(p *Pack, msgs []schema.Action, cond string, opts PackOptions) {
	lo := window(len(msgs), cond, opts.LastK)
	for i := lo; i < len(msgs); i++ {
		a := &msgs[i]
		role := "unknown"
		if a.Role != nil {
			role = *a.Role
		}
		p.Messages = append(p.Messages, Message{Step: a.Step, Role: role, Text: renderMessage(a)})
	}
	p.Description = describe(cond, 0, len(p.Messages), true)
}

// withoutFinalMessage returns the trajectory with the agent's final message
// taken out, and that message. The final message is the recorded one
// (meta.json, the result), else the agent's last natural-language message:
// the last assistant message with text, wherever it stands (τ-bench
// trajectories end with the user's or a tool's message after it). The text
// of that last assistant message and of every action or message saying the
// same (folded, at least minHeldText letters and digits) is removed; one
// left with nothing (no tool call, output, screenshot or action) is
// dropped. acts is not modified.
func withoutFinalMessage(acts []schema.Action, recorded *string) ([]schema.Action, string) {
	last := -1
	for i := len(acts) - 1; i >= 0; i-- {
		if isAssistantText(&acts[i]) {
			last = i
			break
		}
	}
	final := ""
	switch {
	case recorded != nil && strings.TrimSpace(*recorded) != "":
		final = *recorded
	case last >= 0:
		final = *acts[last].Text
	}
	same := key(final)
	out := make([]schema.Action, 0, len(acts))
	for i := range acts {
		a := acts[i]
		if i == last || a.Text != nil && len(same) >= minHeldText && key(*a.Text) == same {
			a.Text = nil
			if a.ToolName == nil && a.Observation == nil && a.Screen == nil && a.Action == nil && a.Keys == nil {
				continue
			}
		}
		out = append(out, a)
	}
	return out, final
}

func isAssistantText(a *schema.Action) bool {
	return a.Role != nil && *a.Role == "assistant" && a.Text != nil && strings.TrimSpace(*a.Text) != ""
}

// toolCallMark starts the line of a message that shows its tool call.
const toolCallMark = "[tool call] "

// maxObservation caps tool output and command output shown per step.
const maxObservation = 2000

func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + " [...]"
}

func renderAction(a *schema.Action) string {
	var b strings.Builder
	if a.Action != nil {
		b.WriteString(*a.Action)
	}
	if a.ToolName != nil {
		b.WriteString(" " + toolCall(a))
	}
	if a.Keys != nil {
		b.WriteString(" " + *a.Keys)
	}
	if a.Text != nil {
		fmt.Fprintf(&b, " %q", *a.Text)
	}
	if a.Observation != nil {
		b.WriteString(" → " + capText(*a.Observation, maxObservation))
	}
	return strings.TrimSpace(b.String())
}

// toolCall renders a tool call: NAME or NAME(ARGUMENTS).
func toolCall(a *schema.Action) string {
	if a.Arguments != nil {
		return *a.ToolName + "(" + *a.Arguments + ")"
	}
	return *a.ToolName
}

func renderMessage(a *schema.Action) string {
	var parts []string
	if a.Text != nil {
		parts = append(parts, *a.Text)
	}
	if a.ToolName != nil {
		parts = append(parts, toolCallMark+toolCall(a))
	}
	if a.Observation != nil {
		parts = append(parts, capText(*a.Observation, maxObservation))
	}
	return strings.Join(parts, "\n")
}

// describe is the prompt's {evidence_description}.
func describe(cond string, images, steps int, chat bool) string {
	var d string
	switch {
	case chat && cond == E3Full:
		d = fmt.Sprintf("the full conversation (%d messages), oldest first", steps)
	case chat:
		d = fmt.Sprintf("the last %d message(s) of the conversation, oldest first", steps)
	case cond == E1Final && images == 0:
		d = "the final action (no screenshot recorded)"
	case cond == E1Final:
		d = "the final screenshot"
	case cond == E3Full:
		d = fmt.Sprintf("%d screenshot(s) from the whole episode, oldest first, and the full action log (%d steps)", images, steps)
	case images == 0:
		d = fmt.Sprintf("the actions taken in the last %d step(s) (no screenshots recorded)", steps)
	default:
		d = fmt.Sprintf("the last %d screenshot(s), oldest first, and the actions taken in those %d step(s)", images, steps)
	}
	if cond == E2Claim {
		d += ", and the agent's final message"
	}
	return d
}
