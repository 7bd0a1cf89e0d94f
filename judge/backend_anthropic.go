package judge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

var errNoChoice = errors.New("no message content")

// AnthropicVersion is the anthropic-version header sent.
const AnthropicVersion = "2023-06-01"

// Anthropic speaks the messages API: one user message whose content is the
// screenshots as base64 image blocks followed by the prompt text.
type Anthropic struct{ HTTPOptions }

// Call implements Backend.
func (b *Anthropic) Call(ctx context.Context, req *Request) (Reply, error) {
	var r struct {
		Model   string `json:"model"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Usage *struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		} `json:"usage"`
	}
	data, err := b.exchange(ctx, req, func() ([]byte, error) {
		var content []map[string]any
		for _, im := range req.Pack.Images {
			content = append(content, map[string]any{"type": "image", "source": map[string]any{
				"type": "base64", "media_type": im.MediaType, "data": base64.StdEncoding.EncodeToString(im.Data)}})
		}
		content = append(content, map[string]any{"type": "text", "text": req.Prompt})
		return json.Marshal(map[string]any{
			"model":       req.Model,
			"max_tokens":  req.MaxTokens,
			"temperature": req.Temperature,
			"messages":    []map[string]any{{"role": "user", "content": content}},
		})
	}, strings.TrimRight(b.BaseURL, "/")+"/v1/messages", &r, "messages",
		map[string]string{"anthropic-version": AnthropicVersion, "x-api-key": b.APIKey})
	if err != nil {
		return Reply{}, err
	}
	var text strings.Builder
	found := false
	for _, c := range r.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
			found = true
		}
	}
	if !found {
		return Reply{}, malformed("messages", errNoChoice, data)
	}
	out := Reply{Text: text.String(), Model: r.Model}
	if r.Usage != nil {
		out.InputTokens, out.OutputTokens = new(r.Usage.InputTokens), new(r.Usage.OutputTokens)
	}
	return out, nil
}
