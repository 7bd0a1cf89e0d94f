package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// cdp drives a headless Chromium through the DevTools protocol over
// --remote-debugging-pipe: JSON messages separated by NUL bytes, written to
// the browser's fd 3 and read from its fd 4. No network port is opened.
type cdp struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex
	nextID int
	calls  map[int]chan cdpMessage
	events chan cdpMessage
	stderr bytes.Buffer
	done   chan struct{}
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct{ Message string }
	SessionID string `json:"sessionId,omitempty"`
}

// chromiumFlags are the flags every test browser runs with: no sandbox
// (containers), no GPU, and nothing that talks to the network by itself.
func chromiumFlags(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"}
}

func startCDP(ctx context.Context, binary, profile string) (*cdp, error) {
	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c := &cdp{calls: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 4096), done: make(chan struct{}), in: toBrowserW}
	c.cmd = exec.CommandContext(ctx, binary, chromiumFlags(profile)...)
	c.cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fd 3, fd 4
	c.cmd.Stderr = &c.stderr
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	toBrowserR.Close()
	fromBrowserW.Close()
	go func() {
		defer close(c.done)
		r := bufio.NewReader(fromBrowserR)
		for {
			b, err := r.ReadBytes(0)
			if err != nil {
				return
			}
			var m cdpMessage
			if json.Unmarshal(b[:len(b)-1], &m) != nil {
				continue
			}
			if m.ID != 0 {
				c.mu.Lock()
				ch := c.calls[m.ID]
				delete(c.calls, m.ID)
				c.mu.Unlock()
				if ch != nil {
					ch <- m
				}
				continue
			}
			select {
			case c.events <- m:
			default: // a flood of events; the test reads what it needs
			}
		}
	}()
	return c, nil
}

// call sends a command (to a page session when session is not "") and
// waits for its result.
func (c *cdp) call(session, method string, params any, result any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan cdpMessage, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, _ := json.Marshal(msg)
	if _, err := c.in.Write(append(b, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("%s: no answer in 30s; chromium said:\n%s", method, c.stderr.String())
	case <-c.done:
		return fmt.Errorf("%s: chromium exited:\n%s", method, c.stderr.String())
	}
}

// close asks the browser to quit and waits for it.
func (c *cdp) close() {
	_ = c.call("", "Browser.close", map[string]any{}, nil)
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}
