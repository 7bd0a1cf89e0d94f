package judge

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Request is one judge call: the rendered prompt and the pack it came from.
type Request struct {
	Pack         *Pack
	PackJSON     []byte // the canonical encoding (what exec judges read)
	PackSHA256   string
	Prompt       string // rendered rubric
	PromptSHA256 string
	Model        string
	Temperature  float64
	MaxTokens    int

	mu     sync.Mutex
	bodies map[string][]byte // encoded request bodies by wire format, shared by the runs of a pack
}

// body returns the request body for a wire format, building it once: the
// runs of one pack send the same bytes.
func (r *Request) body(format string, build func() ([]byte, error)) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.bodies[format]; ok {
		return b, nil
	}
	b, err := build()
	if err != nil {
		return nil, err
	}
	if r.bodies == nil {
		r.bodies = map[string][]byte{}
	}
	r.bodies[format] = b
	return b, nil
}

// Reply is what a backend got back.
type Reply struct {
	Text         string   // the model's text (parsed by ParseReply); "" for score-only replies
	Score        *float64 // reward models
	Model        string   // the exact model id the API reports; "" when it reports none
	InputTokens  *int64
	OutputTokens *int64
}

// Backend calls one judge. Implementations are safe for concurrent use and
// return *CallError for failures a retry may fix.
type Backend interface {
	Call(ctx context.Context, req *Request) (Reply, error)
}

// CallError is a failed call. Retryable failures (429, 5xx, timeouts,
// resets, truncated or malformed bodies) are retried with backoff,
// waiting at least RetryAfter when the server said so.
type CallError struct {
	Status     int // HTTP status; 0 for transport errors
	Retryable  bool
	RetryAfter time.Duration
	Msg        string
}

func (e *CallError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("HTTP %d: %s", e.Status, e.Msg)
	}
	return e.Msg
}

// MaxReplyBytes caps what is read of one judge reply: an HTTP response
// body or an exec judge's stdout. A longer reply is a failed call.
const MaxReplyBytes = 64 << 20

// HTTPOptions are shared by the HTTP backends.
type HTTPOptions struct {
	BaseURL string
	APIKey  string   // from the environment; never logged or stored
	Secrets Redactor // more values to redact (the other keys in the environment)
	Client  *http.Client
}

// client returns o.Client (or the default client) refusing redirects: a
// judge call is never redirected, so its body is never dropped (a 301/302
// turns a POST into a GET) and its key never reaches another address.
func (o *HTTPOptions) client() *http.Client {
	nc := *cmp.Or(o.Client, http.DefaultClient)
	nc.CheckRedirect = refuseRedirect
	return &nc
}

// refuseRedirect makes the client return a 3xx reply as it is.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// NewHTTPClient returns a client that keeps up to conns connections per
// host and follows no redirect.
func NewHTTPClient(conns int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = conns * 2
	t.MaxIdleConnsPerHost = conns * 2
	t.MaxConnsPerHost = 0
	return &http.Client{Transport: t, CheckRedirect: refuseRedirect}
}

// IsRedirect reports whether err is a judge call answered with a redirect:
// a setup error (the base URL), so the runner stops instead of retrying.
func IsRedirect(err error) bool {
	var ce *CallError
	return errors.As(err, &ce) && ce.Status/100 == 3
}

// exchange posts the request body (built once per pack by build) to url
// with headers (an empty value is not sent), and decodes a 2xx reply
// strictly into out. what names the wire format. It returns the reply.
func (o *HTTPOptions) exchange(ctx context.Context, req *Request, build func() ([]byte, error),
	url string, out any, what string, headers map[string]string) ([]byte, error) {
	body, err := req.body(what, build)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, &CallError{Msg: fmt.Sprintf("build request: %v", err)}
	}
	hr.Header.Set("Content-Type", "application/json")
	for name, value := range headers {
		if value != "" {
			hr.Header.Set(name, value)
		}
	}
	sec := o.secrets()
	resp, err := o.client().Do(hr)
	if err != nil {
		return nil, transportError(ctx, err, sec)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxReplyBytes+1))
	if err != nil {
		return nil, transportError(ctx, fmt.Errorf("read body: %w", err), sec)
	}
	if len(data) > MaxReplyBytes {
		return nil, &CallError{Status: resp.StatusCode, Msg: fmt.Sprintf("reply body over %d MiB", MaxReplyBytes>>20)}
	}
	data = []byte(sec.Redact(string(data)))
	if resp.StatusCode/100 == 3 {
		return nil, &CallError{Status: resp.StatusCode, Msg: fmt.Sprintf("redirect to %q refused: judge calls are never redirected (set --base-url to the final address)",
			capText(sec.Redact(resp.Header.Get("Location")), 300))}
	}
	if resp.StatusCode/100 != 2 {
		e := &CallError{Status: resp.StatusCode, Msg: capText(strings.TrimSpace(string(data)), 300)}
		e.Retryable = resp.StatusCode == 408 || resp.StatusCode == 409 || resp.StatusCode == 429 || resp.StatusCode >= 500
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		return nil, e
	}
	if err := decodeStrict(data, out); err != nil {
		return nil, malformed(what, err, data)
	}
	return data, nil
}

// bearer is the Authorization header value of key; "" (not sent) without one.
func bearer(key string) string {
	if key == "" {
		return ""
	}
	return "Bearer " + key
}

func transportError(ctx context.Context, err error, sec Redactor) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := sec.Redact(err.Error())
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &CallError{Retryable: true, Msg: "timeout: " + msg}
	}
	return &CallError{Retryable: true, Msg: msg}
}

// malformed is a 2xx reply whose envelope cannot be read (truncated or not
// JSON): the server's fault, so retryable.
func malformed(what string, err error, body []byte) error {
	return &CallError{Retryable: true, Msg: fmt.Sprintf("malformed %s reply (%v): %s", what, err, capText(string(body), 200))}
}

// MaxRetryWait caps the wait a Retry-After header asks for (seconds or an
// HTTP date): a server cannot make a run sleep for years.
const MaxRetryWait = 10 * time.Minute

// retryAfter parses a Retry-After header, seconds or an HTTP date, capped
// at MaxRetryWait.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(strings.TrimSpace(h), 64); err == nil || errors.Is(err, strconv.ErrRange) {
		if !(s > 0) { // negative or NaN
			return 0
		}
		return time.Duration(min(s, MaxRetryWait.Seconds()) * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return min(t.Sub(now), MaxRetryWait)
	}
	return 0
}

// CallRetrying calls b, retrying retryable failures up to retries times
// with jittered exponential backoff from base (Retry-After honoured). It is
// for one-off questions (the Trust Layer's labeller); the runner has its
// own loop with a shared rate limit and budget.
func CallRetrying(ctx context.Context, b Backend, req *Request, retries int, base time.Duration) (Reply, error) {
	base = positiveOr(base, 500*time.Millisecond)
	sec := backendSecrets(b)
	for attempt := 0; ; attempt++ {
		reply, err := b.Call(ctx, req)
		reply, err = sec.redactReply(reply), sec.RedactErr(err)
		var ce *CallError
		if err == nil || ctx.Err() != nil || !errors.As(err, &ce) || !ce.Retryable || attempt >= retries {
			return reply, err
		}
		if err := sleep(ctx, max(backoff(base, attempt), ce.RetryAfter)); err != nil {
			return Reply{}, err
		}
	}
}

// sleep waits d, or until ctx is done (then it returns ctx.Err()).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return ctx.Err() // a stop that came as the timer fired still stops
}
