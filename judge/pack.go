package judge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// PackFormat names the canonical encoding; it changes only with it.
const PackFormat = "trustlake-pack/1"

// Pack is the evidence a judge sees for one episode under one condition.
// It carries no episode id, source, category or verifier output (see
// Guard). Its canonical encoding (Encode) is what is hashed, stored and
// sent to exec judges.
type Pack struct {
	Format       string    `json:"format"`
	Condition    string    `json:"condition"`
	TaskText     string    `json:"task_text"`
	Description  string    `json:"evidence_description"`
	Steps        []Step    `json:"steps,omitempty"`    // computer-use actions, oldest first
	Messages     []Message `json:"messages,omitempty"` // chat/tool trajectories without screens
	Images       []Image   `json:"images,omitempty"`   // screenshots, oldest first
	FinalMessage *string   `json:"final_message,omitempty"`
}

// Step is one action of the trajectory in the pack.
type Step struct {
	Step   int64  `json:"step"`
	Action string `json:"action"`          // rendered action ("type \"4500\"", "key ctrl+s")
	Image  *int   `json:"image,omitempty"` // index into Images of the screenshot after this step
}

// Message is one message of a chat trajectory.
type Message struct {
	Step int64  `json:"step"`
	Role string `json:"role"`
	Text string `json:"text"`
}

// Image is one screenshot as sent: PNG bytes (base64 in JSON).
type Image struct {
	Step      int64  `json:"step"`
	MediaType string `json:"media_type"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	SHA256    string `json:"sha256"`
	Data      []byte `json:"data"`
}

// Encode returns the canonical encoding: JSON with the fields in
// declaration order, no HTML escaping, no trailing newline.
func (p *Pack) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encode pack: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// DecodePack parses a canonical encoding and checks that it re-encodes to
// the same bytes (so a stored pack cannot drift from its hash).
func DecodePack(data []byte) (*Pack, error) {
	var p Pack
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("decode pack: %w", err)
	}
	if p.Format != PackFormat {
		return nil, fmt.Errorf("decode pack: format %q, this build reads %q", p.Format, PackFormat)
	}
	return &p, nil
}

// SHA256Hex returns the hex sha256 of data.
func SHA256Hex(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Inputs names the pack fields present, for the evidence table.
func (p *Pack) Inputs() []string {
	out := []string{"task_text"}
	if len(p.Images) > 0 {
		out = append(out, "screenshots")
	}
	if len(p.Steps) > 0 {
		out = append(out, "actions")
	}
	if len(p.Messages) > 0 {
		out = append(out, "messages")
	}
	if p.FinalMessage != nil {
		out = append(out, "final_message")
	}
	return out
}

// minHeldText is the shortest text (in folded letters and digits) Holds
// looks for: a shorter one ("OK", "Done!") is found in ordinary words.
const minHeldText = 8

// Holds reports whether p shows text as the agent's final message would
// be shown, compared folded as the leakage guard compares (case,
// compatibility forms, separators and whitespace do not matter): a
// message whose text (before its tool calls) is text, a step whose action
// contains it, or the final_message field holding it. An earlier message
// that says more than text (the agent repeating itself) does not count. A
// text shorter than minHeldText folded letters and digits is held by no pack.
func (p *Pack) Holds(text string) bool {
	k := key(text)
	if len(k) < minHeldText {
		return false
	}
	if p.FinalMessage != nil && fold(*p.FinalMessage).contains(k) {
		return true
	}
	for _, st := range p.Steps {
		if fold(st.Action).contains(k) {
			return true
		}
	}
	for _, m := range p.Messages {
		said, _, _ := strings.Cut(m.Text, "\n"+toolCallMark)
		if key(said) == k {
			return true
		}
	}
	return false
}
