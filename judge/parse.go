package judge

import (
	"encoding/json"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// maxRaw caps the reply text stored with a parse_error.
const maxRaw = 2000

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
	bad := Verdict{Verdict: schema.VerdictParseError, Raw: capText(text, maxRaw)}
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return bad
	}
	if r.Verdict == nil {
		if r.Score == nil {
			return bad
		}
		return Verdict{Score: r.Score, Evidence: r.Evidence}
	}
	switch *r.Verdict {
	case schema.VerdictSuccess, schema.VerdictFailure, schema.VerdictUncertain:
	default:
		return bad
	}
	if r.Confidence != nil && (*r.Confidence < 0 || *r.Confidence > 1) {
		return bad
	}
	return Verdict{Verdict: *r.Verdict, Confidence: r.Confidence, Score: r.Score, Evidence: r.Evidence}
}
