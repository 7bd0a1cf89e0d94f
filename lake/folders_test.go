package lake_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// folderFiles lists the *.parquet files a folder reader would glob under a
// table folder, relative to the lake root.
func folderFiles(t *testing.T, root, table string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(root, table), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func manifestFiles(t *testing.T, l *lake.Lake, table string) []string {
	t.Helper()
	m, err := l.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range m.Files {
		if f.Table == table {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

func emptyDirs(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != root {
			if ents, _ := os.ReadDir(p); len(ents) == 0 {
				out = append(out, p)
			}
		}
		return nil
	})
	return out
}

// TestTableFoldersHoldOnlyLiveFiles: folder readers saw superseded files
// for an hour after compact or --replace (twice the rows), and empty
// partition folders piled up. A table folder now holds exactly the files of
// the manifest; superseded files wait in _superseded/.
func TestTableFoldersHoldOnlyLiveFiles(t *testing.T) {
	root := t.TempDir()
	l, _ := lake.Open(root, runcounts.With(lake.Options{}))
	for i := 0; i < 3; i++ {
		write(t, l, lake.WriterOptions{}, verdict(fmt.Sprint("ep", i), "j", "E1-final", 1, "success", int64(i+1)))
	}
	if _, err := lake.Compact(t.Context(), l, lake.Verdicts); err != nil {
		t.Fatal(err)
	}
	if got, want := folderFiles(t, root, lake.Verdicts), manifestFiles(t, l, lake.Verdicts); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after compact: folder %v, manifest %v", got, want)
	}
	// --replace moves the replaced file out too, and the partition folder
	// of a judge whose rows all moved elsewhere does not stay behind empty.
	write(t, l, lake.WriterOptions{Replace: true}, verdict("ep0", "j", "E1-final", 1, "failure", 1))
	if got, want := folderFiles(t, root, lake.Verdicts), manifestFiles(t, l, lake.Verdicts); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after replace: folder %v, manifest %v", got, want)
	}
	sup, _ := filepath.Glob(filepath.Join(root, "_superseded", "verdicts", "*", "*", "*.parquet"))
	if len(sup) == 0 {
		t.Fatal("no superseded file kept for running readers")
	}
	if rep, _ := l.Check(t.Context()); len(rep.Problems) != 0 {
		t.Fatalf("check: %+v", rep.Problems)
	}
	// A rolled-back write (a rejected batch, a crash) leaves no empty folder.
	tx, _ := l.Begin(t.Context())
	w, _ := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{})
	v := verdict("ep9", "other-judge", "E3-full", 1, "success", 1)
	w.Add(&v)
	w.Close()
	// Before the commit, nothing of this write is in a table folder.
	var inTable []string
	filepath.WalkDir(filepath.Join(root, lake.Verdicts), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".parquet") {
			inTable = append(inTable, p)
		}
		return nil
	})
	if len(inTable) != 0 {
		t.Fatalf("files being written are in the table folder: %v", inTable)
	}
	if staged, _ := filepath.Glob(filepath.Join(root, "_staging", "*.tmp")); len(staged) == 0 {
		t.Fatal("the write is not staged in _staging/")
	}
	tx.Rollback()
	if staged, _ := filepath.Glob(filepath.Join(root, "_staging", "*")); len(staged) != 0 {
		t.Fatalf("rollback left %v", staged)
	}
	if d := emptyDirs(filepath.Join(root, lake.Verdicts)); len(d) != 0 {
		t.Fatalf("empty folders after a rollback: %v", d)
	}
	// After the grace period the next writer deletes superseded files.
	l2, _ := lake.Open(root, runcounts.With(lake.Options{TombstoneGrace: time.Nanosecond}))
	write(t, l2, lake.WriterOptions{}, verdict("ep5", "j", "E1-final", 1, "success", 1))
	if sup, _ := filepath.Glob(filepath.Join(root, "_superseded", "verdicts", "*", "*", "*.parquet")); len(sup) != 0 {
		t.Fatalf("superseded files past their grace: %v", sup)
	}
	if d := emptyDirs(filepath.Join(root, "_superseded")); len(d) != 0 {
		t.Fatalf("empty folders in _superseded: %v", d)
	}
}
