package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
)

// Exec runs a local command per call (through sh -c): it reads
// {"pack_sha256", "prompt_sha256", "prompt", "model", "temperature", "pack"}
// as JSON on stdin, where "pack" is the canonical pack encoding verbatim, and
// prints the rubric JSON ({"verdict", "confidence", "evidence"}) or
// {"score": x} on stdout. A non-zero exit is a failed (retryable) call.
type Exec struct {
	Command string
	Env     []string // extra environment, KEY=VALUE
	Secrets Redactor // redacted from its stderr, errors and reply text
}

// Call implements Backend.
func (b *Exec) Call(ctx context.Context, req *Request) (Reply, error) {
	var in bytes.Buffer
	in.WriteString(`{"pack_sha256":`)
	writeJSON(&in, req.PackSHA256)
	in.WriteString(`,"prompt_sha256":`)
	writeJSON(&in, req.PromptSHA256)
	in.WriteString(`,"prompt":`)
	writeJSON(&in, req.Prompt)
	in.WriteString(`,"model":`)
	writeJSON(&in, req.Model)
	in.WriteString(`,"temperature":`)
	writeJSON(&in, req.Temperature)
	in.WriteString(`,"pack":`)
	in.Write(req.PackJSON)
	in.WriteString("}\n")
	cmd := exec.CommandContext(ctx, "sh", "-c", b.Command)
	cmd.Stdin = &in
	cmd.Env = append(cmd.Environ(), b.Env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Reply{}, ctx.Err()
		}
		return Reply{}, &CallError{Retryable: true, Msg: fmt.Sprintf("exec %q: %v: %s", b.Command, err, capText(strings.TrimSpace(errb.String()), 300))}
	}
	text := out.String()
	var meta struct {
		Model        string `json:"model"`
		InputTokens  *int64 `json:"input_tokens"`
		OutputTokens *int64 `json:"output_tokens"`
	}
	_ = decodeStrict([]byte(strings.TrimSpace(text)), &meta)
	return Reply{Text: text, Model: meta.Model, InputTokens: meta.InputTokens, OutputTokens: meta.OutputTokens}, nil
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	b.Truncate(b.Len() - 1) // the encoder's newline
}
