package ingest

// meta.json: the one decoder for episode metadata (ingest and verify).

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// ReadMeta decodes dir/meta.json exactly as Episodes does (the one meta.json
// decoder: agent as an object or a string, repeated keys and wrong types
// refused, a regular file only). Errors are *schema.RecordError.
func ReadMeta(ctx context.Context, dir string) (schema.Episode, error) {
	name := filepath.Join(dir, "meta.json")
	var ep schema.Episode
	data, fields, line, err := readObject(ctx, name, 16<<20)
	if err == nil {
		line, err = decodeMeta(fields, data, &ep)
	}
	if err != nil {
		return ep, recordErrors(name, line, err)[0] // the first error of the file
	}
	return ep, nil
}

func decodeMeta(fields []field, data []byte, ep *schema.Episode) (int64, error) {
	var extra []byte
	seen := map[string]bool{}
	ep.Source = schema.SourceNatural
	for i := range fields {
		f := &fields[i]
		k := string(f.key)
		if seen[k] {
			return lineOf(data, f.off), &schema.FieldError{Field: k, Err: schema.Reason(schema.ErrDuplicate, "key appears twice")}
		}
		seen[k] = true
		var err error
		switch k {
		case "episode_id":
			ep.EpisodeID, err = f.str()
		case "task_id":
			ep.TaskID, err = f.str()
		case "source":
			ep.Source, err = f.str()
		case "agent":
			err = decodeAgent(f, ep, &extra)
		case "n_steps":
			ep.NSteps, err = f.optInt()
		case "final_message":
			ep.FinalMessage, err = f.optStr()
		case "sandbox_image":
			ep.SandboxImage, err = f.optStr()
		case "created_at":
			ep.CreatedAt, err = f.optTime()
		case "parent_episode_id":
			ep.ParentEpisodeID, err = f.optStr()
		case "perturbation":
			ep.Perturbation, err = f.optStr()
		default:
			if f.kind == kNonFinite {
				err = errString(string(f.val) + " is not a finite number")
			}
			extra = appendExtra(extra, f)
		}
		if err != nil {
			return lineOf(data, f.off), bad(f, err)
		}
	}
	ep.Extra = closeExtra(extra)
	if err := ep.Validate(); err != nil {
		return fieldLine(fields, data, err), err
	}
	return 0, nil
}

// fieldLine returns the line of the field a validation error names, or 0.
func fieldLine(fields []field, data []byte, err error) int64 {
	fes := schema.SplitFieldErrors(err)
	if len(fes) == 0 {
		return 0
	}
	name, _, _ := strings.Cut(fes[0].Field, ".")
	for i := range fields {
		if string(fields[i].key) == name {
			return lineOf(data, fields[i].off)
		}
	}
	return 0
}

// decodeAgent reads "agent": {"name","version","seed"} or "agent": "name".
// Unknown agent fields go to extra as "agent.<key>".
func decodeAgent(f *field, ep *schema.Episode, extra *[]byte) error {
	if f.kind == kString {
		s, err := f.str()
		ep.Agent = s
		return err
	}
	if f.kind != kObject {
		return f.typeErr("object or string")
	}
	sub, err := scanObject(nil, f.val)
	if err != nil {
		return err
	}
	for i := range sub {
		s := &sub[i]
		var err error
		switch string(s.key) {
		case "name":
			ep.Agent, err = s.str()
		case "version":
			if s.kind == kNumber {
				v := string(s.val)
				ep.AgentVersion = &v
			} else {
				ep.AgentVersion, err = s.optStr()
			}
		case "seed":
			ep.AgentSeed, err = s.optInt()
		default:
			cp := *s
			cp.key = append([]byte("agent."), s.key...)
			*extra = appendExtra(*extra, &cp)
		}
		if err != nil {
			return &schema.FieldError{Field: "agent." + string(s.key), Err: fmt.Errorf("%w: %v", typeOrValue(err), err)}
		}
	}
	return nil
}
