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
			if err := b.episode(ctx, d); err != nil {
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
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	f, err := openRegular(name, false)
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
	if err := checkJSONText(data); err != nil {
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
	if fe, off := checkKeys(data); fe != nil {
		return nil, &lineError{off: off, err: fe}
	}
	return fields, nil
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

func (b *batch) episode(ctx context.Context, dir string) error {
	b.stats.Inputs++
	metaName := filepath.Join(dir, "meta.json")
	data, fields, err := readObject(ctx, metaName, b.opts.MaxLineBytes)
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
	if err := b.finalState(ctx, dir, &ep); err != nil {
		b.reject(filepath.Join(dir, "final_state.tar.zst"), 0, err)
	}
	n, err := b.episodeActions(ctx, dir, &ep)
	if err != nil {
		return err
	}
	ep.NScreens = n
	if err := add(b, lake.Episodes, &ep, metaName, 0); err != nil {
		return err
	}
	return b.groundTruth(ctx, dir, ep.EpisodeID)
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
	f, err := openRegular(p, false)
	if err != nil {
		return "", false, fmt.Errorf("%q: %w", rel, err)
	}
	defer f.Close()
	h := sha256.New()
	buf := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", false, err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

func (b *batch) finalState(ctx context.Context, dir string, ep *schema.Episode) error {
	const rel = "final_state.tar.zst"
	sum, ok, err := fileSHA256(ctx, dir, rel)
	if err != nil || !ok {
		return err
	}
	p := rel
	ep.FinalStatePath, ep.FinalStateSHA256 = &p, &sum
	return nil
}
