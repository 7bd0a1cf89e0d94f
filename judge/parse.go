package judge

import (
	"strings"
	"unicode/utf8"

	"github.com/trustlake/trustlake/schema"
)

// maxRaw caps the reply text stored in the lake: raw (a parse_error's
// reply) and the judge's evidence text. A capped text ends in truncatedNote.
const maxRaw = 2000

// truncatedNote marks a stored text cut at maxRaw bytes.
const truncatedNote = " [truncated]"

// capStored cuts s to maxRaw bytes at a rune boundary and marks the cut.
func capStored(s string) string {
	if len(s) <= maxRaw {
		return s
	}
	n := maxRaw
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + truncatedNote
}

// Verdict is a parsed judge reply.
type Verdict struct {
	Verdict    string   // success, failure, uncertain, parse_error; "" for a score-only reply
	Confidence *float64 // in [0, 1]
	Score      *float64 // reward models
	Evidence   string   // the judge's one or two sentences
	Raw        string   // the reply, capped, when Verdict is parse_error
}

// ParseReply reads the rubric's JSON reply ({"verdict", "confidence",
// "evidence"}) or a score ({"score"}). A reply wrapped in one ```json fence
// is accepted; anything else is a parse_error carrying the raw text.
func ParseReply(text string) Verdict {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	var r struct {
		Verdict    *string  `json:"verdict"`
		Confidence *float64 `json:"confidence"`
		Score      *float64 `json:"score"`
		Evidence   string   `json:"evidence"`
	}
	bad := Verdict{Verdict: schema.VerdictParseError, Raw: capStored(text)}
	if err := decodeStrict([]byte(s), &r); err != nil {
		return bad
	}
	if r.Verdict == nil {
		if r.Score == nil {
			return bad
		}
		return Verdict{Score: r.Score, Evidence: capStored(r.Evidence)}
	}
	switch *r.Verdict {
	case schema.VerdictSuccess, schema.VerdictFailure, schema.VerdictUncertain:
	default:
		return bad
	}
	if r.Confidence != nil && (*r.Confidence < 0 || *r.Confidence > 1) {
		return bad
	}
	return Verdict{Verdict: *r.Verdict, Confidence: r.Confidence, Score: r.Score, Evidence: capStored(r.Evidence)}
}
