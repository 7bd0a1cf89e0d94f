package ingest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// actions maps a sample's messages to action rows (step = message index)
// and finds the final message: the last assistant message with text.
//   - every message: role, text (text parts joined by newlines, attachments
//     resolved); extra: message id, source, model, content types other than
//     text, sha256 of each image;
//   - an assistant message with tool calls: tool_name (the functions, comma
//     separated), arguments (the JSON object, or an array of them for
//     several calls); extra: tool_call_ids, parse errors;
//   - a tool message: tool_name (its function), observation (its text,
//     not in text); extra: tool_call_id, error.
func (r *inspectRun) actions(s *inspectSample, epID string, prov schema.Provenance) ([]schema.Action, *string, []fieldErr) {
	acts := make([]schema.Action, 0, len(s.Messages))
	var final *string
	var errs []fieldErr
	for i, m := range s.Messages {
		mc, err := s.content(m.Content)
		if err != nil {
			errs = append(errs, fieldErr{fmt.Sprintf("messages[%d].content", i), err})
			continue
		}
		role := m.Role
		if role == "" {
			errs = append(errs, fieldErr{fmt.Sprintf("messages[%d].role", i), schema.ErrMissing})
			continue
		}
		a := schema.Action{EpisodeID: epID, Agent: r.agent, Step: int64(i), Role: &role, Text: mc.text, Provenance: prov}
		extra := map[string]any{}
		for k, v := range map[string]string{"id": m.ID, "source": m.Source, "model": m.Model} {
			if v != "" {
				extra[k] = v
			}
		}
		if len(mc.types) > 0 && !(len(mc.types) == 1 && mc.types[0] == "text") {
			extra["content_types"] = mc.types
		}
		if len(mc.images) > 0 {
			extra["image_sha256"] = mc.images
		}
		switch {
		case role == "assistant" && len(m.ToolCalls) > 0:
			names := make([]string, len(m.ToolCalls))
			ids := make([]string, len(m.ToolCalls))
			args := make([]json.RawMessage, len(m.ToolCalls))
			var parseErrs []string
			for j, tc := range m.ToolCalls {
				names[j], ids[j] = tc.Function, tc.ID
				arg := tc.Arguments
				if len(arg) == 0 {
					arg = json.RawMessage("{}")
				}
				arg, err := s.resolveJSON(arg)
				if err != nil {
					errs = append(errs, fieldErr{fmt.Sprintf("messages[%d].tool_calls[%d].arguments", i, j), err})
				}
				args[j] = arg
				if tc.ParseError != nil {
					parseErrs = append(parseErrs, *tc.ParseError)
				}
			}
			a.ToolName, a.Arguments = toolCallColumns(names, args)
			extra["tool_call_ids"] = ids
			if len(parseErrs) > 0 {
				extra["parse_errors"] = parseErrs
			}
		case role == "tool":
			if m.Function != "" {
				fn := m.Function
				a.ToolName = &fn
			}
			a.Observation, a.Text = mc.text, nil
			if m.ToolCallID != "" {
				extra["tool_call_id"] = m.ToolCallID
			}
			if e := nullToNil(m.Error); e != nil {
				extra["error"] = e
			}
		}
		if role == "assistant" && mc.text != nil && strings.TrimSpace(*mc.text) != "" {
			final = mc.text
		}
		a.Extra = marshalExtra(extra)
		acts = append(acts, a)
	}
	return acts, final, errs
}
