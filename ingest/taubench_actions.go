package ingest

// τ-bench trajectories → actions rows, and the per-record error collector.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// tauActions turns a message list into action rows and finds the final
// message: the last assistant message with non-empty content.
func tauActions(traj []tauMessage, episodeID, agent, file string, line int64) ([]schema.Action, *string, []fieldErr) {
	acts := make([]schema.Action, 0, len(traj))
	var final *string
	var errs []fieldErr
	for i, m := range traj {
		text, err := tauContent(m.Content)
		if err != nil {
			errs = append(errs, fieldErr{fmt.Sprintf("traj[%d].content", i), err})
			continue
		}
		role := m.Role
		a := schema.Action{
			EpisodeID: episodeID, Agent: agent, Step: int64(i), Role: &role, Text: text, Extra: "{}",
			Provenance: schema.Provenance{SrcFile: file, SrcLine: line},
		}
		switch {
		case role == "assistant" && len(m.ToolCalls) > 0:
			names := make([]string, len(m.ToolCalls))
			args := make([]json.RawMessage, len(m.ToolCalls))
			ids := make([]string, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				names[j], ids[j] = tc.Function.Name, tc.ID
				if !json.Valid([]byte(tc.Function.Arguments)) {
					errs = append(errs, fieldErr{fmt.Sprintf("traj[%d].tool_calls[%d].function.arguments", i, j),
						schema.Reason(schema.ErrSyntax, "tool %s: arguments are not valid JSON: %.60q", tc.Function.Name, tc.Function.Arguments)})
				}
				args[j] = json.RawMessage(tc.Function.Arguments)
			}
			a.ToolName, a.Arguments = toolCallColumns(names, args)
			ex, _ := json.Marshal(map[string]any{"tool_call_ids": ids})
			a.Extra = string(ex)
		case role == "tool":
			name := m.Name
			a.ToolName = &name
			a.Observation = text
			a.Text = nil
			ex, _ := json.Marshal(map[string]any{"tool_call_id": m.ToolCallID})
			a.Extra = string(ex)
		}
		if role == "assistant" && text != nil && strings.TrimSpace(*text) != "" {
			final = text
		}
		acts = append(acts, a)
	}
	return acts, final, errs
}

// toolCallColumns are the tool calls of an assistant message as action
// columns: the functions comma separated, and the arguments of the one call
// or a JSON array of them.
func toolCallColumns(names []string, args []json.RawMessage) (name, arguments *string) {
	n := strings.Join(names, ",")
	text := []byte(args[0])
	if len(args) > 1 {
		text, _ = json.Marshal(args)
	}
	a := string(text)
	return &n, &a
}

// tauContent reads a message content: a string, null, or a list of
// {"type":"text","text":...} parts (joined with newlines).
func tauContent(raw json.RawMessage) (*string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return &s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, schema.Reason(schema.ErrType, "content is neither a string nor a list of text parts")
	}
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	s = strings.Join(texts, "\n")
	return &s, nil
}

// collector gathers the record errors of one file, up to 100.
type collector struct {
	file    string
	errs    RecordErrors
	dropped int
}

func (c *collector) add(line int64, field string, err error) {
	if len(c.errs) >= 100 {
		c.dropped++
		return
	}
	c.errs = append(c.errs, &schema.RecordError{File: c.file, Line: line, Field: field, Err: err})
}

func (c *collector) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	if c.dropped > 0 {
		c.errs = append(c.errs, &schema.RecordError{File: c.file, Err: fmt.Errorf("%d more errors not shown", c.dropped)})
	}
	return c.errs
}
