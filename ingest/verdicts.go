package ingest

import (
	"github.com/trustlake/trustlake/schema"
)

// decodeVerdict fills v from one verdict line (seed §4.4):
//
//	{"episode_id": "ep_0001", "judge": "vlm:model-x", "condition": "E2-lastk",
//	 "run": 1, "verdict": "success", "score": null, "confidence": 0.9,
//	 "model": "model-x-2026-09-01", "called_at": "2026-10-10T10:02:11Z"}
//
// verdict may be null for a score-only judge (a reward model) when score
// is present. Unknown fields are kept in extra. fields is scratch space.
func decodeVerdict(line []byte, fields []field, v *schema.Verdict) ([]field, error) {
	fields, err := scanObject(fields[:0], line)
	if err != nil {
		return fields, &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", err)}
	}
	var extra []byte
	seen := map[string]bool{}
	var fe *schema.FieldError
	for i := range fields {
		f := &fields[i]
		k := string(f.key)
		if seen[k] {
			return fields, fieldError(k, schema.ErrDuplicate, errString("key appears twice in the object"))
		}
		seen[k] = true
		switch k {
		case "episode_id":
			v.EpisodeID, err = f.str()
		case "judge":
			v.Judge, err = f.str()
		case "condition":
			v.Condition, err = f.str()
		case "run":
			v.Run, err = f.int()
		case "verdict":
			v.Verdict, err = f.optStr()
		case "score":
			v.Score, err = f.optFloat()
		case "confidence":
			v.Confidence, err = f.optFloat()
		case "model":
			v.Model, err = f.optStr()
		case "called_at":
			v.CalledAt, err = f.optTime()
		default:
			if f.kind == kNonFinite {
				err = errString(string(f.val) + " is not a finite number")
			} else {
				extra = appendExtra(extra, f)
			}
		}
		if err != nil && fe == nil {
			fe = bad(f, err)
		}
	}
	if fe != nil {
		return fields, fe
	}
	for _, req := range []string{"episode_id", "judge", "condition", "run"} {
		if !seen[req] {
			return fields, &schema.FieldError{Field: req, Err: schema.ErrMissing}
		}
	}
	if !seen["verdict"] && !seen["score"] {
		return fields, &schema.FieldError{Field: "verdict", Err: schema.ErrMissing}
	}
	v.Extra = closeExtra(extra)
	return fields, v.Validate()
}

type errString string

func (e errString) Error() string { return string(e) }
