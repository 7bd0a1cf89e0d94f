package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// episodeActions ingests actions.jsonl of one episode; it returns how many
// referenced screenshots exist. A missing actions.jsonl is not an error.
func (b *batch) episodeActions(ctx context.Context, dir string, ep *schema.Episode) (int64, error) {
	name := filepath.Join(dir, "actions.jsonl")
	f, err := openRegular(name, false)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		b.reject(name, 0, err)
		return 0, nil
	}
	defer f.Close()
	ch := &chunker{r: f, maxLine: b.opts.MaxLineBytes}
	c := &rawChunk{lines: &lineBuf{}}
	var fields []field
	var screens int64
	for {
		lb := c.lines
		lb.reset()
		c.errs = nil
		if !ch.fill(c, name) {
			return screens, nil
		}
		for _, e := range c.errs { // lines too long (finish puts errors in line order)
			b.reject(name, e.Line, e.Err)
		}
		for i, end := range lb.ends {
			line, n := lb.buf[lb.starts[i]:end], lb.nums[i]
			if err := ctx.Err(); err != nil {
				return screens, err
			}
			if err := checkJSONText(line); err != nil {
				b.reject(name, n, err)
				continue
			}
			a := schema.Action{EpisodeID: ep.EpisodeID, Agent: ep.Agent}
			fields, err = decodeAction(line, fields, &a)
			if err != nil {
				b.reject(name, n, err)
				continue
			}
			if a.Screen != nil {
				if err := safeRel(*a.Screen); err != nil {
					b.reject(name, n, &schema.FieldError{Field: "screen", Err: err})
					continue
				}
				sum, ok, err := fileSHA256(ctx, dir, *a.Screen)
				if err == nil && !ok {
					err = schema.Reason(schema.ErrMissing, "%q does not exist in the episode folder", *a.Screen)
				}
				if err != nil {
					b.reject(name, n, &schema.FieldError{Field: "screen", Err: err})
					continue
				}
				a.ScreenSHA256 = &sum
				screens++
			}
			a.SrcFile, a.SrcLine = name, n
			if err := add(b, lake.Actions, &a); err != nil {
				return screens, err
			}
		}
		if c.err != nil { // a read error, without fill's "read FILE: "
			b.reject(name, 0, errors.Unwrap(c.err))
			return screens, nil
		}
	}
}

// decodeAction fills a from one actions.jsonl line:
//
//	{"step": 21, "action": "type", "text": "4500", "screen": "screens/021.png"}
//
// Harnesses that record command output put it in "observation"; chat
// trajectories use "role", "tool_name" and "arguments". Unknown fields are
// kept in extra.
func decodeAction(line []byte, fields []field, a *schema.Action) ([]field, error) {
	fields, err := scanObject(fields[:0], line)
	if err != nil {
		return fields, &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", err)}
	}
	if fe, _ := checkKeys(line); fe != nil {
		return fields, fe
	}
	var extra []byte
	hasStep := false // checkKeys refused repeated keys
	for i := range fields {
		f := &fields[i]
		switch string(f.key) {
		case "step":
			a.Step, err = f.int()
			hasStep = true
		case "action":
			a.Action, err = f.optStr()
		case "role":
			a.Role, err = f.optStr()
		case "text":
			a.Text, err = f.optStr()
		case "keys":
			if f.kind == kArray {
				s := string(f.val)
				a.Keys = &s
			} else {
				a.Keys, err = f.optStr()
			}
		case "screen":
			a.Screen, err = f.optStr()
		case "tool_name":
			a.ToolName, err = f.optStr()
		case "arguments":
			if f.kind == kString || f.kind == kNull {
				a.Arguments, err = f.optStr()
			} else {
				s := string(f.val)
				a.Arguments = &s
			}
		case "observation":
			a.Observation, err = f.optStr()
		case "episode_id":
			var id string
			if id, err = f.str(); err == nil && id != a.EpisodeID {
				err = errString("does not match meta.json's episode_id " + a.EpisodeID)
			}
		default:
			if f.kind == kNonFinite {
				err = errString(string(f.val) + " is not a finite number")
			}
			extra = appendExtra(extra, f)
		}
		if err != nil {
			return fields, bad(f, err)
		}
	}
	if !hasStep {
		return fields, &schema.FieldError{Field: "step", Err: schema.ErrMissing}
	}
	a.Extra = closeExtra(extra)
	return fields, a.Validate()
}
