package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// Episodes ingests episode folders (seed §4.1: meta.json, actions.jsonl,
// screens/, final_state.tar.zst, gt.json) into the episodes, actions and
// ground_truth tables as one all-or-nothing batch. Each path is one episode
// folder (it holds meta.json) or a folder of them. Screenshots and the
// final state are stored as paths and sha256, not bytes.
func Episodes(ctx context.Context, dst *lake.Lake, paths []string, opts Options) (Stats, error) {
	return inBatch(ctx, dst, opts, func(b *batch) error {
		dirs, bad, err := EpisodeDirs(paths)
		b.errs = append(b.errs, bad...)
		if err != nil {
			return err
		}
		for i, d := range dirs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if b.opts.Progress != nil && i%1000 == 0 {
				b.opts.Progress(int64(i))
			}
			if err := b.episode(d); err != nil {
				return err
			}
		}
		return nil
	})
}

// EpisodeDirs expands arguments into episode folders, the way ingest
// episodes reads them: an argument holding meta.json is one episode, any
// other folder is a folder of episodes. Symlinked episode folders, folders
// without meta.json and arguments that are not folders are returned as
// record errors, never followed; the good folders are still returned, in a
// stable order. A non-nil error means a folder could not be read.
func EpisodeDirs(args []string) ([]string, RecordErrors, error) {
	var out []string
	var bad RecordErrors
	reject := func(p string, err error) {
		re := &schema.RecordError{File: p, Err: err}
		if fe, ok := err.(*schema.FieldError); ok {
			re.Field, re.Err = fe.Field, fe.Err
		}
		bad = append(bad, re)
	}
	symlink := func(p string) error {
		target, _ := os.Readlink(p)
		return schema.Reason(schema.ErrPath, "symlinked episode folder (points to %s); refusing to follow", target)
	}
	for _, p := range args {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			reject(p, err)
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			reject(p, symlink(p))
			continue
		case !fi.IsDir():
			reject(p, schema.Reason(schema.ErrValue, "not a folder"))
			continue
		}
		if _, err := os.Lstat(filepath.Join(p, "meta.json")); err == nil {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return out, bad, fmt.Errorf("read %s: %w", p, err)
		}
		var found []string
		before := len(bad)
		for _, e := range entries {
			child := filepath.Join(p, e.Name())
			switch {
			case e.Type()&os.ModeSymlink != 0:
				reject(child, symlink(child))
			case !e.IsDir():
			default:
				if _, err := os.Lstat(filepath.Join(child, "meta.json")); err != nil {
					reject(child, &schema.FieldError{Field: "meta.json", Err: schema.Reason(schema.ErrMissing, "episode folder without meta.json")})
					continue
				}
				found = append(found, child)
			}
		}
		if len(found) == 0 && len(bad) == before {
			reject(p, schema.Reason(schema.ErrMissing, "no records (no meta.json and no episode folders)"))
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, bad, nil
}

// readObject reads a whole JSON object file inside an episode folder (a
// regular file, symlinks not followed); errors carry the line.
func readObject(ctx context.Context, name string, max int) ([]byte, []field, error) {
	f, err := openRegular(ctx, name, false)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > max {
		return nil, nil, schema.Reason(schema.ErrTooLong, "more than %d bytes", max)
	}
	fields, err := parseObject(data)
	return data, fields, err
}

// parseObject splits a whole-file JSON object (meta.json, gt.json) into its
// fields. It refuses an empty file, invalid UTF-8, anything encoding/json
// refuses and a key repeated at any depth.
func parseObject(data []byte) ([]field, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errNoRecords
	}
	if err := checkLine(data); err != nil {
		return nil, err
	}
	fields, err := scanObject(nil, data)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &syntaxError{off: int(se.Offset), msg: se.Error()}
		}
		return nil, err
	}
	if path, off, ok := repeatedKey(data); ok {
		return nil, &lineError{off: off, err: repeatedKeyError(path)}
	}
	return fields, nil
}

// ReadMeta decodes dir/meta.json exactly as Episodes does (the one meta.json
// decoder: agent as an object or a string, repeated keys and wrong types
// refused, a regular file only). Errors are *schema.RecordError.
func ReadMeta(ctx context.Context, dir string) (schema.Episode, error) {
	name := filepath.Join(dir, "meta.json")
	var ep schema.Episode
	data, fields, err := readObject(ctx, name, 16<<20)
	if err == nil {
		var line int64
		if line, err = decodeMeta(fields, data, &ep); err != nil {
			return ep, recordError(name, line, err)
		}
		return ep, nil
	}
	switch e := err.(type) {
	case *syntaxError:
		return ep, recordError(name, lineOf(data, e.off), &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", e)})
	case *lineError:
		return ep, recordError(name, lineOf(data, e.off), e.err)
	}
	return ep, recordError(name, 0, err)
}

// recordError builds the RecordError of a whole-file input.
func recordError(name string, line int64, err error) *schema.RecordError {
	re := &schema.RecordError{File: name, Line: line, Err: err}
	var fe *schema.FieldError
	if errors.As(err, &fe) {
		re.Field, re.Err = fe.Field, fe.Err
	}
	return re
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int) int64 {
	if off > len(data) {
		off = len(data)
	}
	return int64(bytes.Count(data[:off], []byte{'\n'})) + 1
}

// lineError is an error at byte offset off of a whole-file input.
type lineError struct {
	off int
	err error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }

func (b *batch) rejectObject(name string, data []byte, err error) {
	if le, ok := err.(*lineError); ok {
		b.reject(name, lineOf(data, le.off), le.err)
		return
	}
	if se, ok := err.(*syntaxError); ok {
		b.reject(name, lineOf(data, se.off), &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", se)})
		return
	}
	b.reject(name, 0, err)
}

func (b *batch) episode(dir string) error {
	b.stats.Inputs++
	metaName := filepath.Join(dir, "meta.json")
	data, fields, err := readObject(b.ctx, metaName, b.opts.MaxLineBytes)
	if err != nil {
		b.rejectObject(metaName, data, err)
		return nil
	}
	var ep schema.Episode
	if line, fe := decodeMeta(fields, data, &ep); fe != nil {
		b.reject(metaName, line, fe)
		return nil
	}
	if abs, err := filepath.Abs(dir); err == nil {
		ep.Dir = abs
	}
	ep.SrcFile, ep.SrcLine = metaName, 0
	if err := b.finalState(dir, &ep); err != nil {
		b.reject(filepath.Join(dir, "final_state.tar.zst"), 0, err)
	}
	n, err := b.episodeActions(dir, &ep)
	if err != nil {
		return err
	}
	ep.NScreens = n
	if err := add(b, lake.Episodes, &ep, metaName, 0); err != nil {
		return err
	}
	return b.groundTruth(dir, ep.EpisodeID)
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
			if fe, ok := err.(*schema.FieldError); ok {
				return lineOf(data, f.off), fe
			}
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
			return &schema.FieldError{Field: "agent." + string(s.key), Err: fmt.Errorf("%w: %v", typeOrValue(s, err), err)}
		}
	}
	return nil
}

// safeRel checks that p is a relative path that stays inside the folder.
func safeRel(p string) error {
	if p == "" {
		return schema.Reason(schema.ErrPath, "empty path")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") {
		return schema.Reason(schema.ErrPath, "%q is absolute; paths must stay inside the episode folder", p)
	}
	c := path.Clean(filepath.ToSlash(p))
	if c == ".." || strings.HasPrefix(c, "../") {
		return schema.Reason(schema.ErrPath, "%q escapes the episode folder", p)
	}
	return nil
}

// fileSHA256 hashes the regular file rel inside the episode folder dir.
// No symlink is followed at any level: a symlinked screens/ folder is
// refused like a symlinked file, so nothing outside the folder is read.
// ok is false when the file does not exist.
func fileSHA256(ctx context.Context, dir, rel string) (sum string, ok bool, err error) {
	parts := strings.Split(path.Clean(filepath.ToSlash(rel)), "/")
	p := dir
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if os.IsNotExist(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return "", false, schema.Reason(schema.ErrPath, "%q is a symlink; symlinks are not followed", strings.Join(parts[:i+1], "/"))
		}
	}
	f, err := openRegular(ctx, p, false)
	if err != nil {
		return "", false, fmt.Errorf("%q: %w", rel, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false, err
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

func (b *batch) finalState(dir string, ep *schema.Episode) error {
	const rel = "final_state.tar.zst"
	sum, ok, err := fileSHA256(b.ctx, dir, rel)
	if err != nil || !ok {
		return err
	}
	p := rel
	ep.FinalStatePath, ep.FinalStateSHA256 = &p, &sum
	return nil
}

// groundTruth ingests gt.json when present.
func (b *batch) groundTruth(dir, episodeID string) error {
	name := filepath.Join(dir, "gt.json")
	if _, err := os.Lstat(name); os.IsNotExist(err) {
		return nil
	}
	data, fields, err := readObject(b.ctx, name, b.opts.MaxLineBytes)
	if err != nil {
		b.rejectObject(name, data, err)
		return nil
	}
	var g schema.GroundTruth
	line, err := decodeGroundTruth(fields, data, &g)
	if err == nil && g.EpisodeID != episodeID {
		err = &schema.FieldError{Field: "episode_id", Err: schema.Reason(schema.ErrValue, "%q does not match meta.json's %q", g.EpisodeID, episodeID)}
	}
	if err != nil {
		b.reject(name, line, err)
		return nil
	}
	if g.Category == nil && g.CategoryRaw != nil {
		b.stats.NeedsReview++
	}
	g.SrcFile = name
	return add(b, lake.GroundTruth, &g, name, 0)
}

func decodeGroundTruth(fields []field, data []byte, g *schema.GroundTruth) (int64, error) {
	seen := map[string]bool{}
	var extra []byte
	g.Diagnostics, g.Gates = "null", "[]"
	for i := range fields {
		f := &fields[i]
		k := string(f.key)
		seen[k] = true
		var err error
		switch k {
		case "episode_id":
			g.EpisodeID, err = f.str()
		case "verifier_sha256":
			g.VerifierSHA256, err = f.str()
		case "pass":
			g.Pass, err = f.boolean()
		case "score":
			g.Score, err = f.optFloat()
		case "category":
			var raw *string
			raw, err = f.optStr()
			g.Category, g.CategoryRaw = schema.NormalizeCategory(raw)
		case "diagnostics":
			g.Diagnostics = string(f.val)
		case "gates":
			g.Gates, err = decodeGates(f)
		case "deterministic":
			g.Deterministic, err = f.optBool()
		case "source":
			g.Source, err = f.str()
		case "annotator":
			g.Annotator, err = f.optStr()
		default:
			extra = appendExtra(extra, f)
		}
		if err != nil {
			if fe, ok := err.(*schema.FieldError); ok {
				return lineOf(data, f.off), fe
			}
			return lineOf(data, f.off), bad(f, err)
		}
	}
	for _, req := range []string{"episode_id", "pass"} {
		if !seen[req] {
			return 0, &schema.FieldError{Field: req, Err: schema.ErrMissing}
		}
	}
	if g.Source == "" {
		g.Source = schema.GTVerifier
	}
	if g.Pass && g.CategoryRaw != nil {
		return 0, &schema.FieldError{Field: "category", Err: schema.Reason(schema.ErrValue, "a passing episode has no failure category (got %q)", *g.CategoryRaw)}
	}
	if len(extra) > 0 {
		// Keep unknown verifier fields with the diagnostics rather than drop them.
		g.Diagnostics = fmt.Sprintf(`{"diagnostics":%s,"extra":%s}`, g.Diagnostics, closeExtra(extra))
	}
	return 0, g.Validate()
}

// decodeGates validates "gates": [{"id","type","passed"}] and returns it as
// canonical JSON.
func decodeGates(f *field) (string, error) {
	if f.kind == kNull {
		return "[]", nil
	}
	if f.kind != kArray {
		return "", f.typeErr("array")
	}
	var gates []schema.Gate
	dec := json.NewDecoder(bytes.NewReader(f.val))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&gates); err != nil {
		return "", &schema.FieldError{Field: "gates", Err: schema.Reason(schema.ErrType, "%v", err)}
	}
	for i, g := range gates {
		if g.ID == "" {
			return "", &schema.FieldError{Field: fmt.Sprintf("gates[%d].id", i), Err: schema.ErrMissing}
		}
		ok := false
		for _, t := range schema.GateTypes {
			ok = ok || g.Type == t
		}
		if !ok {
			return "", &schema.FieldError{Field: fmt.Sprintf("gates[%d].type", i), Err: schema.Reason(schema.ErrValue, "%q is not one of %s", g.Type, strings.Join(schema.GateTypes, ", "))}
		}
	}
	out, _ := json.Marshal(gates)
	return string(out), nil
}
