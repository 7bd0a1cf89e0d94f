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
	reject := func(p string, err error) { bad = append(bad, recordErrors(p, 0, err)...) }
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
// regular file, symlinks not followed) and splits it (parseObject); an
// error comes with its line, or 0.
func readObject(ctx context.Context, name string, max int) ([]byte, []field, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, err
	}
	f, err := openRegular(name, false)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, nil, 0, err
	}
	if len(data) > max {
		return nil, nil, 0, schema.Reason(schema.ErrTooLong, "more than %d bytes", max)
	}
	fields, line, err := parseObject(data)
	return data, fields, line, err
}

// parseObject splits a whole-file JSON object (meta.json, gt.json) into its
// fields. It refuses an empty file, invalid UTF-8, anything encoding/json
// refuses and a key repeated at any depth; an error comes with its line.
func parseObject(data []byte) ([]field, int64, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, 0, errNoRecords
	}
	if err := checkJSONText(data); err != nil {
		return nil, 0, err
	}
	fields, err := scanObject(nil, data)
	if err == nil {
		var se *json.SyntaxError
		if err = json.Unmarshal(data, new(json.RawMessage)); errors.As(err, &se) {
			err = &syntaxError{off: int(se.Offset), msg: se.Error()}
		}
	}
	if se, ok := err.(*syntaxError); ok {
		return nil, lineOf(data, se.off), &schema.FieldError{Field: "json", Err: schema.Reason(schema.ErrSyntax, "%v", se)}
	} else if err != nil {
		return nil, 0, err
	}
	if fe, off := checkKeys(data); fe != nil {
		return nil, lineOf(data, off), fe
	}
	return fields, 0, nil
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int) int64 {
	if off > len(data) {
		off = len(data)
	}
	return int64(bytes.Count(data[:off], []byte{'\n'})) + 1
}

func (b *batch) episode(ctx context.Context, dir string) error {
	b.stats.Inputs++
	metaName := filepath.Join(dir, "meta.json")
	data, fields, line, err := readObject(ctx, metaName, b.opts.MaxLineBytes)
	var ep schema.Episode
	if err == nil {
		line, err = decodeMeta(fields, data, &ep)
	}
	if err != nil {
		b.reject(metaName, line, err)
		return nil
	}
	if abs, err := filepath.Abs(dir); err == nil {
		ep.Dir = abs
	}
	ep.SrcFile, ep.SrcLine = metaName, 0
	const finalState = "final_state.tar.zst"
	if sum, ok, err := fileSHA256(ctx, dir, finalState); err != nil {
		b.reject(filepath.Join(dir, finalState), 0, err)
	} else if ok {
		p := finalState
		ep.FinalStatePath, ep.FinalStateSHA256 = &p, &sum
	}
	n, err := b.episodeActions(ctx, dir, &ep)
	if err != nil {
		return err
	}
	ep.NScreens = n
	if err := add(b, lake.Episodes, &ep); err != nil {
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
