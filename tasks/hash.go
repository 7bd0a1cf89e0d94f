package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// VerifierSHA256 identifies what decides a task's verdict, so that a gt.json
// names the exact verifier that wrote it. It is the hex sha256 of this byte
// stream, in this order:
//
//  1. "trustlake-verifier-v1\n"
//  2. "image\n" + the image name + "\n"
//  3. "checks\n" + the JSON of task.json's checks as re-encoded by Go
//     (field order of check.Spec, no spaces) + "\n", or "verifier\n" + the
//     JSON of the script command + "\n"
//  4. "score\n" + the score mode + "\n"
//  5. for every file of the task folder that the verdict can depend on, in
//     byte order of its slash-separated path: "file " + path + " " + size
//     + "\n" + content. These are: verify.* and everything under verifier/
//     (script code), and everything under initial/ (the state "unchanged"
//     and "no_other_changes" compare with).
//
// The instruction, domain, perturbations, fixtures and notes are not part of
// it: editing them does not change past labels.
func VerifierSHA256(t *Task) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "trustlake-verifier-v1\nimage\n%s\n", t.ImageName())
	if t.Declarative() {
		b, err := json.Marshal(t.Checks)
		if err != nil {
			return "", fmt.Errorf("hash checks: %w", err)
		}
		fmt.Fprintf(h, "checks\n%s\n", b)
	} else {
		b, _ := json.Marshal(t.Verifier.Command)
		fmt.Fprintf(h, "verifier\n%s\n", b)
	}
	fmt.Fprintf(h, "score\n%s\n", t.Score)
	files, err := verifierFiles(t.Dir)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if err := hashFile(h, t.Dir, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func verifierFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "fixtures" {
				return filepath.SkipDir
			}
			return nil
		}
		top, _, nested := strings.Cut(rel, "/")
		switch {
		case !nested && strings.HasPrefix(rel, "verify."):
			out = append(out, rel)
		case nested && (top == "verifier" || top == "initial"):
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list verifier files: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

func hashFile(h hash.Hash, dir, rel string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	st, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("hash verifier file: %w", err)
	}
	var data []byte
	if st.Mode()&fs.ModeSymlink != 0 {
		t, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("hash verifier file: %w", err)
		}
		data = []byte("symlink:" + t)
	} else if data, err = os.ReadFile(p); err != nil {
		return fmt.Errorf("hash verifier file: %w", err)
	}
	fmt.Fprintf(h, "file %s %d\n", rel, len(data))
	h.Write(data)
	return nil
}
