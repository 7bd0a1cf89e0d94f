// Package lakecopy copies lakes for tests that must not change their
// fixture: a plain copy, or a copy as a lake written before the run_counts
// table (its manifest lists none of their files).
package lakecopy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/trustlake/trustlake/lake"
)

// Copy copies the folder src into a new temporary folder of t and returns
// it.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// WithoutRunCounts copies the lake at src and drops the run_counts files
// from the copy's manifest: a lake as written before run_counts, which the
// metrics read by counting the verdicts. It fails t when src has none.
func WithoutRunCounts(t testing.TB, src string) string {
	t.Helper()
	dst := Copy(t, src)
	name := filepath.Join(dst, lake.ManifestPath)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lake.DecodeManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	var keep []lake.FileEntry
	for _, f := range m.Files {
		if f.Table != lake.RunCounts {
			keep = append(keep, f)
		}
	}
	if len(keep) == len(m.Files) {
		t.Fatalf("%s has no run_counts files", src)
	}
	m.Files = keep
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
