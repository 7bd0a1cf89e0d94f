package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ExecEnv are the environment variables an exec judge inherits; anything
// else (API keys above all) reaches it only when handed over by name
// (--pass-env NAME, Exec.Env).
var ExecEnv = []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"}

// maxExecStderr caps the stderr of an exec judge kept for its error message.
const maxExecStderr = 64 << 10

// execWaitDelay bounds how long a finished exec judge's output is waited
// for when a child it left behind keeps stdout open.
const execWaitDelay = time.Second

// Exec runs a local command per call (through sh -c): it reads
// {"pack_sha256", "prompt_sha256", "prompt", "model", "temperature", "pack"}
// as JSON on stdin, where "pack" is the canonical pack encoding verbatim, and
// prints the rubric JSON ({"verdict", "confidence", "evidence"}) or
// {"score": x} on stdout. A non-zero exit is a failed (retryable) call.
//
// The command runs in its own process group with the ExecEnv variables and
// Env only. At the call's deadline the whole group is killed (a grandchild
// holding stdout cannot keep the call open), and so is what is left of it
// when the command exits. Stdout is capped at MaxReplyBytes.
type Exec struct {
	Command string
	Env     []string // handed-over environment, KEY=VALUE
	Secrets Redactor // redacted from its stderr, errors and reply text
}

// Call implements Backend.
func (b *Exec) Call(ctx context.Context, req *Request) (Reply, error) {
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	enc.SetEscapeHTML(false)
	in.WriteByte('{')
	for _, f := range [][2]any{{"pack_sha256", req.PackSHA256}, {"prompt_sha256", req.PromptSHA256},
		{"prompt", req.Prompt}, {"model", req.Model}, {"temperature", req.Temperature}} {
		in.WriteString(`"` + f[0].(string) + `":`)
		enc.Encode(f[1])
		in.Truncate(in.Len() - 1) // the encoder's newline
		in.WriteByte(',')
	}
	in.WriteString(`"pack":`)
	in.Write(req.PackJSON)
	in.WriteString("}\n")
	cmd := exec.CommandContext(ctx, "sh", "-c", b.Command)
	cmd.Stdin = &in
	cmd.Env = append(execEnv(os.Environ()), b.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	cmd.WaitDelay = execWaitDelay
	out := &capWriter{max: MaxReplyBytes, full: func() { killGroup(cmd) }}
	errb := &capWriter{max: maxExecStderr}
	cmd.Stdout, cmd.Stderr = out, errb
	err := cmd.Run()
	killGroup(cmd) // what the command left running
	stderr := func() string { return capText(strings.TrimSpace(b.Secrets.Redact(errb.b.String())), 300) }
	switch {
	case out.over:
		return Reply{}, &CallError{Msg: fmt.Sprintf("exec %q: stdout over %d MiB: killed", b.Command, MaxReplyBytes>>20)}
	case err == nil:
	case ctx.Err() != nil:
		return Reply{}, ctx.Err()
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success():
		// The command exited 0; a child it left kept stdout open and is killed.
	default:
		return Reply{}, &CallError{Retryable: true, Msg: fmt.Sprintf("exec %q: %v: %s", b.Command, err, stderr())}
	}
	text := b.Secrets.Redact(out.b.String())
	var meta struct {
		Model        string `json:"model"`
		InputTokens  *int64 `json:"input_tokens"`
		OutputTokens *int64 `json:"output_tokens"`
	}
	_ = decodeStrict([]byte(strings.TrimSpace(text)), &meta)
	return Reply{Text: text, Model: meta.Model, InputTokens: meta.InputTokens, OutputTokens: meta.OutputTokens}, nil
}

// execEnv keeps the ExecEnv variables of environ.
func execEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(ExecEnv, k) {
			out = append(out, kv)
		}
	}
	return out
}

// killGroup kills the process group the command leads, if it started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// errOverCap stops copying a command's output past its cap.
var errOverCap = errors.New("output over its cap")

// capWriter keeps the first max bytes written to it; past them it sets
// over, calls full once and refuses further writes (so memory stays bounded
// whatever the command prints).
type capWriter struct {
	b    bytes.Buffer
	max  int
	over bool
	full func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.over {
		if w.full == nil {
			return len(p), nil
		}
		return 0, errOverCap
	}
	if room := w.max - w.b.Len(); len(p) > room {
		w.b.Write(p[:room])
		w.over = true
		if w.full != nil {
			w.full()
			return 0, errOverCap
		}
		return len(p), nil // stderr: keep the start, drop the rest
	}
	return w.b.Write(p)
}
