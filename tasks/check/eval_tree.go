package check

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// maxTreeFiles bounds the files no_other_changes compares.
const maxTreeFiles = 100000

// entry is what no_other_changes compares for one path.
type entry struct {
	kind string // "file", "dir", "link", "other"
	data []byte // file content or link target
}

func snapshotTree(root *os.Root) (map[string]entry, error) {
	out := map[string]entry{}
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if len(out) >= maxTreeFiles {
			return fmt.Errorf("more than %d entries", maxTreeFiles)
		}
		switch {
		case d.IsDir():
			out[p] = entry{kind: "dir"}
		case d.Type()&fs.ModeSymlink != 0:
			t, err := root.Readlink(p)
			if err != nil {
				return err
			}
			out[p] = entry{kind: "link", data: []byte(t)}
		case d.Type().IsRegular():
			data, err := readFile(root, p)
			if err != nil {
				return err
			}
			out[p] = entry{kind: "file", data: data}
		default:
			out[p] = entry{kind: "other"}
		}
		return nil
	})
	return out, err
}

// allowed reports whether p matches a glob of allow. A glob ending in "/**"
// matches everything below its prefix; other globs use path.Match, where
// '*' does not cross '/'.
func allowed(p string, allow []string) bool {
	for _, g := range allow {
		if pre, ok := strings.CutSuffix(g, "/**"); ok {
			if p == pre || strings.HasPrefix(p, pre+"/") {
				return true
			}
			continue
		}
		if ok, _ := path.Match(g, p); ok {
			return true
		}
	}
	return false
}

// evalNoOtherChanges compares the whole final tree with the initial state.
// Directories count only when added or removed while empty of allowed paths;
// got lists the first changed paths as "+added", "-removed", "~modified".
func evalNoOtherChanges(s *Spec, final, init *os.Root) (bool, any, error) {
	before, err := snapshotTree(init)
	if err != nil {
		return false, nil, fmt.Errorf("read initial state: %w", shortErr(err))
	}
	after, err := snapshotTree(final)
	if err != nil {
		return false, nil, fmt.Errorf("read final state: %w", shortErr(err))
	}
	var changes []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case allowed(p, s.Allow):
		case !ok:
			if b.kind != "dir" || !hasAllowedBelow(p, before, s.Allow) {
				changes = append(changes, "-"+p)
			}
		case a.kind != b.kind || !bytes.Equal(a.data, b.data):
			changes = append(changes, "~"+p)
		}
	}
	for p, a := range after {
		if _, ok := before[p]; ok || allowed(p, s.Allow) {
			continue
		}
		if a.kind == "dir" && hasAllowedBelow(p, after, s.Allow) {
			continue
		}
		changes = append(changes, "+"+p)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i][1:] < changes[j][1:] })
	if len(changes) == 0 {
		return true, nil, nil
	}
	if len(changes) > 20 {
		changes = append(changes[:20], fmt.Sprintf("… %d more", len(changes)-20))
	}
	return false, changes, nil
}

// hasAllowedBelow reports whether a directory holds an allowed path, so that
// creating or removing the folder of an allowed file is not a change.
func hasAllowedBelow(dir string, tree map[string]entry, allow []string) bool {
	for p := range tree {
		if strings.HasPrefix(p, dir+"/") && allowed(p, allow) {
			return true
		}
	}
	return false
}
