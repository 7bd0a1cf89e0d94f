package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// attachmentPrefix marks content that inspect-ai moved into the sample's
// attachments (condensed logs): "attachment://<hash>".
const attachmentPrefix = "attachment://"

// inspectSample is one EvalSample: one sample id × one epoch.
type inspectSample struct {
	ID          string // an integer id in decimal
	Epoch       int64
	Input       json.RawMessage
	Target      json.RawMessage
	Messages    []inspectMessage
	Scores      map[string]inspectScore
	ScoreOrder  []string // score names in the order the log lists them
	Error       *string  // error.message: the sample failed to run
	Limit       json.RawMessage
	StartedAt   *string
	Attachments map[string]string
	Extra       map[string]json.RawMessage // fields the adapter does not map
}

type inspectMessage struct {
	ID         string            `json:"id"`
	Role       string            `json:"role"`
	Content    json.RawMessage   `json:"content"`
	Source     string            `json:"source"`
	Model      string            `json:"model"`
	ToolCalls  []inspectToolCall `json:"tool_calls"`
	ToolCallID string            `json:"tool_call_id"`
	Function   string            `json:"function"`
	Error      json.RawMessage   `json:"error"`
}

type inspectToolCall struct {
	ID         string          `json:"id"`
	Function   string          `json:"function"`
	Arguments  json.RawMessage `json:"arguments"`
	ParseError *string         `json:"parse_error"`
}

type inspectScore struct {
	Value       json.RawMessage            `json:"value"`
	Answer      *string                    `json:"answer"`
	Explanation *string                    `json:"explanation"`
	Metadata    map[string]json.RawMessage `json:"metadata"`
}

// droppedSampleFields are not stored: the transcript's events (the
// messages carry the trajectory), attachments (resolved into the rows),
// the output (its message is the last message) and the sample's id, epoch
// and mapped fields.
var droppedSampleFields = map[string]bool{
	"id": true, "epoch": true, "input": true, "target": true, "messages": true, "scores": true,
	"error": true, "limit": true, "started_at": true, "attachments": true,
	"events": true, "events_data": true, "output": true, "error_retries": true,
}

// decodeSample reads one sample object; errors name the field.
func decodeSample(raw []byte) (*inspectSample, []fieldErr) {
	if err := checkJSONText(raw); err != nil {
		return nil, []fieldErr{{"", err}}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, []fieldErr{{"", jsonReason(err)}}
	}
	s := &inspectSample{}
	var errs []fieldErr
	bad := func(field string, err error) { errs = append(errs, fieldErr{field, err}) }
	id, err := intOrStringID(obj["id"])
	if err != nil {
		bad("id", err)
	}
	s.ID = id
	if e, ok := obj["epoch"]; !ok {
		bad("epoch", schema.ErrMissing)
	} else if n, err := strconv.ParseInt(string(e), 10, 64); err != nil || n < 1 {
		bad("epoch", schema.Reason(schema.ErrValue, "%.40s is not an epoch (1, 2, ...)", e))
	} else {
		s.Epoch = n
	}
	s.Input, s.Target, s.Limit = obj["input"], obj["target"], nullToNil(obj["limit"])
	decode := func(field string, into any) {
		if v, ok := obj[field]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, into); err != nil {
				bad(field, jsonReason(err))
			}
		}
	}
	decode("messages", &s.Messages)
	decode("attachments", &s.Attachments)
	decode("started_at", &s.StartedAt)
	var sampleErr struct {
		Message string `json:"message"`
	}
	if v := nullToNil(obj["error"]); v != nil {
		decode("error", &sampleErr)
		s.Error = &sampleErr.Message
	}
	decode("scores", &s.Scores)
	if v := nullToNil(obj["scores"]); v != nil {
		s.ScoreOrder = objectKeys(v)
	}
	maps.DeleteFunc(obj, func(k string, _ json.RawMessage) bool { return droppedSampleFields[k] })
	s.Extra = obj
	return s, errs
}

func nullToNil(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}

// intOrStringID reads an id that a log may write as an integer or as a
// non-empty string (τ-bench task ids, Inspect sample ids).
func intOrStringID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", schema.ErrMissing
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s, nil
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return strconv.FormatInt(n, 10), nil
	}
	return "", schema.Reason(schema.ErrType, "%.40s is neither an integer nor a non-empty string", raw)
}

// objectKeys lists the keys of a JSON object in document order.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// resolve replaces an attachment reference by its content.
func (s *inspectSample) resolve(v string) (string, error) {
	if !strings.HasPrefix(v, attachmentPrefix) {
		return v, nil
	}
	hash := v[len(attachmentPrefix):]
	if c, ok := s.Attachments[hash]; ok {
		return c, nil
	}
	return "", schema.Reason(schema.ErrMissing, "%s is not in the sample's attachments", v)
}

// resolveJSON resolves attachment references in every string of a JSON
// value (tool call arguments).
func (s *inspectSample) resolveJSON(raw json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(attachmentPrefix)) {
		return raw, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, jsonReason(err)
	}
	var walk func(any) (any, error)
	walk = func(x any) (_ any, err error) {
		switch t := x.(type) {
		case string:
			return s.resolve(t)
		case []any:
			for i := range t {
				if t[i], err = walk(t[i]); err != nil {
					return nil, err
				}
			}
		case map[string]any:
			for k := range t {
				if t[k], err = walk(t[k]); err != nil {
					return nil, err
				}
			}
		}
		return x, nil
	}
	v, err := walk(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// messageContent is a message's text and what else it held: the text
// parts joined by newlines (attachments resolved), the content types in
// order, and the sha256 of each image (data URI or URL) after resolving.
type messageContent struct {
	text   *string
	types  []string
	images []string
}

func (s *inspectSample) content(raw json.RawMessage) (messageContent, error) {
	var mc messageContent
	if len(raw) == 0 || string(raw) == "null" {
		return mc, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err == nil {
		t, err := s.resolve(str)
		mc.text = &t
		return mc, err
	}
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return mc, schema.Reason(schema.ErrType, "content is neither a string nor a list of content parts")
	}
	var texts []string
	for i, p := range parts {
		var typ string
		_ = json.Unmarshal(p["type"], &typ)
		mc.types = append(mc.types, typ)
		switch typ {
		case "text":
			var t string
			if err := json.Unmarshal(p["text"], &t); err != nil {
				return mc, schema.Reason(schema.ErrType, "content[%d].text is not a string", i)
			}
			t, err := s.resolve(t)
			if err != nil {
				return mc, err
			}
			texts = append(texts, t)
		case "image":
			var img string
			_ = json.Unmarshal(p["image"], &img)
			img, err := s.resolve(img)
			if err != nil {
				return mc, err
			}
			sum := sha256.Sum256([]byte(img))
			mc.images = append(mc.images, hex.EncodeToString(sum[:]))
		}
	}
	if len(texts) > 0 || len(parts) == 0 {
		t := strings.Join(texts, "\n")
		mc.text = &t
	}
	return mc, nil
}

// inputText is the sample input as text: a string, or the text of its
// messages joined by newlines.
func (s *inspectSample) inputText() (*string, error) {
	if len(s.Input) == 0 || string(s.Input) == "null" {
		return nil, nil
	}
	var str string
	if json.Unmarshal(s.Input, &str) == nil {
		t, err := s.resolve(str)
		return &t, err
	}
	var msgs []inspectMessage
	if err := json.Unmarshal(s.Input, &msgs); err != nil {
		return nil, schema.Reason(schema.ErrType, "input is neither a string nor a list of messages")
	}
	var texts []string
	for _, m := range msgs {
		mc, err := s.content(m.Content)
		if err != nil {
			return nil, err
		}
		if mc.text != nil {
			texts = append(texts, *mc.text)
		}
	}
	t := strings.Join(texts, "\n")
	return &t, nil
}

// scoreFloat converts a score value as inspect-ai's value_to_float does:
// "C" 1, "P" 0.5, "I" and "N" 0, numbers and booleans as numbers, strings
// yes/true 1 and no/false 0, numeric strings parsed. ok is false for
// lists, objects and null, which have no scalar value, and for any other
// string, which inspect-ai turns into 0 with a warning: a judge's is a
// parse_error, and checkScoreValue refuses the others.
func scoreFloat(raw json.RawMessage) (v float64, ok bool) {
	var x any
	if json.Unmarshal(raw, &x) != nil {
		return 0, false
	}
	switch t := x.(type) {
	case bool:
		if t {
			return 1, true
		}
		return 0, true
	case float64:
		return t, true
	case string:
		return scoreString(t)
	}
	return 0, false
}

// scoreString reads a score written as a string; ok is false for a string
// that is not a score ("banana", "", "NaN", "inf").
func scoreString(t string) (float64, bool) {
	switch t {
	case "C":
		return 1, true
	case "P":
		return 0.5, true
	case "I", "N":
		return 0, true
	}
	switch strings.ToLower(t) {
	case "yes", "true":
		return 1, true
	case "no", "false":
		return 0, true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// checkScoreValue refuses a score string that scoreString cannot read, for
// a scorer that is not a judge (ground truth, recorded results): it would
// otherwise be a silent score 0, a failure nobody observed.
func checkScoreValue(raw json.RawMessage) error {
	var t string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &t) != nil {
		return nil
	}
	if _, ok := scoreString(t); !ok {
		return schema.Reason(schema.ErrValue, "%.40q is not a score (want C, P, I, N, yes, no, true, false or a finite number)", t)
	}
	return nil
}
