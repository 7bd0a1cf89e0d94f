package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestCommittedLibraryIsFresh regenerates the library and compares it with
// the committed tasks/library: every generated file must be committed with
// the same bytes. Run `go run ./tasks/library/gen` after editing a definition.
func TestCommittedLibraryIsFresh(t *testing.T) {
	tmp := t.TempDir()
	if err := Write(tmp); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		rel, _ := filepath.Rel(tmp, p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join("..", rel))
		if err != nil {
			t.Errorf("%s: not committed (run go run ./tasks/library/gen): %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: committed file differs from the generator's output (run go run ./tasks/library/gen)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// And nothing stale: every committed file of a generated task is generated.
	for _, d := range all() {
		err := filepath.WalkDir(filepath.Join("..", d.Task.ID), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, _ := filepath.Rel("..", p)
			if _, err := os.Stat(filepath.Join(tmp, rel)); err != nil {
				t.Errorf("%s: committed but no longer generated", rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 100 {
		t.Errorf("generated %d files, want a full library", n)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := Write(a); err != nil {
		t.Fatal(err)
	}
	if err := Write(b); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
