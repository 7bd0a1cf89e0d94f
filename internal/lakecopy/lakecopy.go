// Package lakecopy copies lakes for tests that must not change their
// fixture: a plain copy, a copy as a lake written before the run_counts
// table (its manifest lists none of their files), or one whose run_counts
// files are written as before their scores had run numbers.
package lakecopy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake"
)

// Copy copies the folder src into a new temporary folder of t and returns
// it.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
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
	editManifest(t, dst, func(m *lake.Manifest) {
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
	})
	return dst
}

// editManifest rewrites the manifest of the lake at dir with what edit
// makes of it.
func editManifest(t testing.TB, dir string, edit func(*lake.Manifest)) {
	t.Helper()
	name := filepath.Join(dir, lake.ManifestPath)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lake.DecodeManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	edit(&m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runCountBeforeRunNumbers is a run_counts row as written before the run
// numbers of its scores were kept (schema.RunCount without Run1..Run3 and
// ScoredVerdicts): its scores in file order, nothing else to tell their
// runs.
type runCountBeforeRunNumbers struct {
	EpisodeID string   `parquet:"episode_id"`
	Seq       int64    `parquet:"seq"`
	Runs      int64    `parquet:"n_runs"`
	Parse     int64    `parquet:"n_parse"`
	Success   int64    `parquet:"n_success"`
	Failure   int64    `parquet:"n_failure"`
	Uncertain int64    `parquet:"n_uncertain"`
	Score1    *float64 `parquet:"score_1,optional"`
	Score2    *float64 `parquet:"score_2,optional"`
	Score3    *float64 `parquet:"score_3,optional"`
	SrcFile   string   `parquet:"_src_file"`
	SrcLine   int64    `parquet:"_src_line"`
}

// WithRunCountsBeforeRunNumbers copies the lake at src and rewrites every
// run_counts file of the copy as written before the run numbers were kept
// (the same rows without the columns run_1..run_3 and n_scored_verdicts),
// with the manifest's sizes and digests to match. It fails t when src has
// no run_counts file.
func WithRunCountsBeforeRunNumbers(t testing.TB, src string) string {
	t.Helper()
	dst := Copy(t, src)
	editManifest(t, dst, func(m *lake.Manifest) {
		n := 0
		for i, f := range m.Files {
			if f.Table != lake.RunCounts {
				continue
			}
			p := filepath.Join(dst, filepath.FromSlash(f.Path))
			rows, err := parquet.ReadFile[runCountBeforeRunNumbers](p)
			if err != nil {
				t.Fatal(err)
			}
			if err := parquet.WriteFile(p, rows); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			m.Files[i].Bytes, m.Files[i].SHA256 = int64(len(data)), hex.EncodeToString(sum[:])
			n++
		}
		if n == 0 {
			t.Fatalf("%s has no run_counts files", src)
		}
	})
	return dst
}
