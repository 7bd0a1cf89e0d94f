package tasks

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Episode folder file names (seed §4.1).
const (
	MetaFile       = "meta.json"
	ActionsFile    = "actions.jsonl"
	FinalStateFile = "final_state.tar.zst"
	GroundTruth    = "gt.json"
)

// Agent is meta.json's agent object.
type Agent struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Seed    *int64 `json:"seed,omitempty"`
}

// UnmarshalJSON accepts the agent object or a plain name ("agent": "a"),
// as ingest does.
func (a *Agent) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		*a = Agent{Name: name}
		return nil
	}
	type plain Agent
	return json.Unmarshal(b, (*plain)(a))
}

// Meta is the part of meta.json the flows use (seed §4.1). Perturb copies a
// parent's meta.json field by field, so fields Meta does not name survive.
type Meta struct {
	EpisodeID       string     `json:"episode_id"`
	TaskID          string     `json:"task_id"`
	Source          string     `json:"source"`
	Agent           Agent      `json:"agent"`
	NSteps          *int64     `json:"n_steps,omitempty"`
	FinalMessage    *string    `json:"final_message,omitempty"`
	SandboxImage    string     `json:"sandbox_image,omitempty"`
	CreatedAt       *time.Time `json:"created_at,omitempty"`
	ParentEpisodeID string     `json:"parent_episode_id,omitempty"`
	Perturbation    string     `json:"perturbation,omitempty"`
	Instruction     string     `json:"instruction,omitempty"` // the task text, for evidence packs
}

// ReadMeta reads dir/meta.json and checks the fields the flows need.
func ReadMeta(dir string) (Meta, error) {
	name := filepath.Join(dir, MetaFile)
	data, err := os.ReadFile(name)
	if err != nil {
		return Meta{}, fmt.Errorf("read meta: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return Meta{}, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case m.EpisodeID == "":
		return Meta{}, fmt.Errorf("%s: episode_id: missing", name)
	case m.TaskID == "":
		return Meta{}, fmt.Errorf("%s: task_id: missing", name)
	}
	return m, nil
}

// BuildEpisode writes an episode folder dst from a final-state directory:
// meta.json and final_state.tar.zst (plus actions.jsonl when actions is not
// nil). dst is created; an existing meta.json is an error. It is meant for
// tests, demos, benchmarks and fixture episodes.
func BuildEpisode(dst string, meta Meta, finalState string, actions []byte) error {
	if meta.EpisodeID == "" || meta.TaskID == "" {
		return errors.New("build episode: episode_id and task_id are required")
	}
	if meta.Source == "" {
		meta.Source = "natural"
	}
	if _, err := os.Lstat(filepath.Join(dst, MetaFile)); err == nil {
		return fmt.Errorf("build episode: %s already exists", filepath.Join(dst, MetaFile))
	}
	data, err := json.MarshalIndent(meta, "", "  ")
	if err == nil {
		err = writeEpisode(dst, append(data, '\n'), finalState, actions)
	}
	if err != nil {
		return fmt.Errorf("build episode: %w", err)
	}
	return nil
}

// writeEpisode writes final_state.tar.zst of state and actions.jsonl (when
// actions is not nil) into dir (created), then meta.json: a folder with
// meta.json is complete.
func writeEpisode(dir string, meta []byte, state string, actions []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create episode folder: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, FinalStateFile))
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := WriteSnapshot(f, state); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if actions != nil {
		if err := os.WriteFile(filepath.Join(dir, ActionsFile), actions, 0o644); err != nil {
			return fmt.Errorf("write actions: %w", err)
		}
	}
	return writeFileAtomic(filepath.Join(dir, MetaFile), meta)
}

// WriteSnapshot writes dir as a zstd-compressed tar (final_state.tar.zst).
// Entries are sorted, with zero times and owners, so the same tree gives
// the same bytes. Only regular files, directories and symbolic links are
// written.
func WriteSnapshot(w io.Writer, dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walk final state: %w", err)
	}
	sort.Strings(paths)
	zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return fmt.Errorf("open zstd: %w", err)
	}
	tw := tar.NewWriter(zw)
	for _, p := range paths {
		if err := addTarEntry(tw, dir, p); err != nil {
			zw.Close()
			return err
		}
	}
	if err := tw.Close(); err != nil {
		zw.Close()
		return fmt.Errorf("close tar: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("close zstd: %w", err)
	}
	return nil
}

func addTarEntry(tw *tar.Writer, dir, p string) error {
	st, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	rel, _ := filepath.Rel(dir, p)
	hdr := &tar.Header{Name: filepath.ToSlash(rel), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
	switch {
	case st.IsDir():
		hdr.Typeflag, hdr.Name, hdr.Mode = tar.TypeDir, hdr.Name+"/", 0o755
	case st.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("snapshot: %w", err)
		}
		hdr.Typeflag, hdr.Linkname, hdr.Mode = tar.TypeSymlink, t, 0o777
	case st.Mode().IsRegular():
		hdr.Typeflag, hdr.Size, hdr.Mode = tar.TypeReg, st.Size(), 0o644
		if st.Mode()&0o111 != 0 {
			hdr.Mode = 0o755
		}
	default:
		return nil
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("snapshot %s: %w", rel, err)
	}
	if hdr.Typeflag != tar.TypeReg {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(tw, f); err != nil {
		return fmt.Errorf("snapshot %s: %w", rel, err)
	}
	return nil
}

// copyTree copies the regular files, directories and symbolic links of src
// into dst (created), every file 0644. A task copy (task) skips the fixtures
// folder and keeps executable files executable.
func copyTree(src, dst string, task bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case task && rel == "fixtures" && d.IsDir():
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, out)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if fi, err := d.Info(); task && err == nil && fi.Mode()&0o111 != 0 {
				mode = 0o755
			}
			return os.WriteFile(out, data, mode)
		}
		return nil
	})
}

// writeFileAtomic writes data to a temporary file beside name and renames it.
func writeFileAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
