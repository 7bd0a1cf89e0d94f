package judge

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
)

// redactedMark replaces a secret in every message and stored text.
const redactedMark = "[redacted]"

// minSecret is the shortest value treated as a secret: shorter ones would
// blank out ordinary words.
const minSecret = 4

// Redactor holds values never shown or stored: API keys (the backend's and
// the other keys in the environment) and what an exec judge was handed.
// Redact is the one redaction every error message, warning, summary and
// stored reply text goes through.
type Redactor []string

// Redact replaces every secret in s by [redacted].
func (ss Redactor) Redact(s string) string {
	for _, k := range ss {
		if len(k) >= minSecret && strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, redactedMark)
		}
	}
	return s
}

// RedactErr returns err with every secret redacted from its message. A
// *CallError keeps its status and retry hints; context errors pass as they
// are (they carry no text from outside).
func (ss Redactor) RedactErr(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ce *CallError
	if errors.As(err, &ce) {
		c := *ce
		c.Msg = ss.Redact(ce.Msg)
		if c.Error() == err.Error() {
			return &c
		}
		return &redactedError{msg: ss.Redact(err.Error()), call: &c}
	}
	if msg := ss.Redact(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// redactedError is a wrapped *CallError whose message was redacted.
type redactedError struct {
	msg  string
	call *CallError
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.call }

// secretHolder is a backend that knows the secrets it was given.
type secretHolder interface{ secrets() Redactor }

func (o *HTTPOptions) secrets() Redactor { return append(Redactor{o.APIKey}, o.Secrets...) }

func (b *Exec) secrets() Redactor { return b.Secrets }

// backendSecrets are the secrets b was given, if it says.
func backendSecrets(b Backend) Redactor {
	if h, ok := b.(secretHolder); ok {
		return h.secrets()
	}
	return nil
}

// redactReply redacts the texts of a reply.
func (ss Redactor) redactReply(r Reply) Reply {
	r.Text, r.Model = ss.Redact(r.Text), ss.Redact(r.Model)
	return r
}

// secretName matches the names of environment variables whose values are
// redacted: API keys, tokens, passwords.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)`)

// minEnvSecret is the shortest environment value redacted by name alone.
const minEnvSecret = 8

// EnvSecrets returns the values to redact from an environment (KEY=VALUE
// lines): every variable named like a key, token or password
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, HF_TOKEN, ...) with a value of 8 bytes
// or more, and the variables named in names whatever their name.
func EnvSecrets(environ []string, names ...string) Redactor {
	var out Redactor
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			continue
		}
		if slices.Contains(names, k) || (secretName.MatchString(k) && len(v) >= minEnvSecret) {
			out = append(out, v)
		}
	}
	return out
}
