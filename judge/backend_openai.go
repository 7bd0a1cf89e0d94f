package judge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// OpenAI speaks the chat-completions wire format (OpenAI, vLLM, Ollama,
// llama.cpp server, LM Studio, most hosted APIs): one user message whose
// content is the prompt text followed by the screenshots as data URLs.
type OpenAI struct{ HTTPOptions }

type oaiPart struct {
	Type     string     `json:"type"`
	Text     string     `json:"text,omitempty"`
	ImageURL *oaiImgURL `json:"image_url,omitempty"`
}

type oaiImgURL struct {
	URL string `json:"url"`
}

// Call implements Backend.
func (b *OpenAI) Call(ctx context.Context, req *Request) (Reply, error) {
	var r struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
	}
	data, err := b.exchange(ctx, req, func() ([]byte, error) {
		parts := []oaiPart{{Type: "text", Text: req.Prompt}}
		for _, im := range req.Pack.Images {
			parts = append(parts, oaiPart{Type: "image_url", ImageURL: &oaiImgURL{URL: "data:" + im.MediaType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)}})
		}
		return json.Marshal(map[string]any{
			"model":       req.Model,
			"temperature": req.Temperature,
			"max_tokens":  req.MaxTokens,
			"messages":    []map[string]any{{"role": "user", "content": parts}},
		})
	}, strings.TrimRight(b.BaseURL, "/")+"/chat/completions", &r, "chat completions",
		map[string]string{"Authorization": bearer(b.APIKey)})
	if err != nil {
		return Reply{}, err
	}
	if len(r.Choices) == 0 || r.Choices[0].Message.Content == nil {
		return Reply{}, malformed("chat completions", errNoChoice, data)
	}
	out := Reply{Text: *r.Choices[0].Message.Content, Model: r.Model}
	if r.Usage != nil {
		out.InputTokens, out.OutputTokens = new(r.Usage.PromptTokens), new(r.Usage.CompletionTokens)
	}
	return out, nil
}
