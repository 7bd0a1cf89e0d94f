package runcounts_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestRunCountsRunNumbers: every kept score has its run number, every row
// counts the runs with a verdict and a score (whose scores it does not
// keep); run_counts files written before (no such columns) still read and
// check clean, and a wrong run number or scored-verdict count is damage.
func TestRunCountsRunNumbers(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	rows := mixedBatch(0)
	for i := range rows {
		if rows[i].Verdict != nil && i%4 == 0 { // some verdicts with a score
			s := float64(i) / 100
			rows[i].Score = &s
		}
	}
	if _, errs := write(t, l, lake.WriterOptions{}, rows...); len(errs) > 0 {
		t.Fatal(errs)
	}
	checkCounts(t, l, "runs with a verdict and a score")
	scoreRuns, scoredVerdicts := map[[2]string][]int64{}, map[string]int64{}
	for _, v := range rows {
		switch {
		case v.Verdict == nil:
			k := [2]string{v.Judge, v.EpisodeID}
			scoreRuns[k] = append(scoreRuns[k], v.Run)
		case v.Score != nil:
			scoredVerdicts[v.Judge+"/"+v.EpisodeID]++
		}
	}
	gotRuns, gotScored := map[[2]string][]int64{}, map[string]int64{}
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		if c.ScoredVerdicts == nil {
			t.Fatalf("%s/%s: no scored-verdict count", c.Judge, c.EpisodeID)
		}
		gotScored[c.Judge+"/"+c.EpisodeID] += *c.ScoredVerdicts
		for j, s := range []*float64{c.Score1, c.Score2, c.Score3} {
			run := []*int64{c.Run1, c.Run2, c.Run3}[j]
			if (s == nil) != (run == nil) {
				t.Fatalf("%s/%s seq %d: score %d and run number: one is missing", c.Judge, c.EpisodeID, c.Seq, j+1)
			}
			if run != nil {
				k := [2]string{c.Judge, c.EpisodeID}
				gotRuns[k] = append(gotRuns[k], *run)
			}
		}
	}
	for k, want := range scoreRuns {
		if got := gotRuns[k]; !slices.Equal(got, want) {
			t.Errorf("%v: run numbers %v, want %v", k, got, want)
		}
	}
	for k, want := range scoredVerdicts {
		if gotScored[k] != want {
			t.Errorf("%s: %d scored verdicts, want %d", k, gotScored[k], want)
		}
	}
	if len(scoredVerdicts) == 0 {
		t.Fatal("no verdict with a score in the test rows")
	}

	// The same lake with run_counts files as written before run numbers.
	old, err := lake.Open(lakecopy.WithRunCountsBeforeRunNumbers(t, dir), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rowsOf[schema.RunCount](t, old, lake.RunCounts) {
		if c.ScoredVerdicts != nil || c.Run1 != nil {
			t.Fatalf("old layout row with run numbers: %+v", c)
		}
	}
	checkCounts(t, old, "run counts before run numbers")

	// A wrong run number, and a wrong scored-verdict count.
	for _, tamper := range []func(*schema.RunCount) bool{
		func(c *schema.RunCount) bool {
			if c.Run1 == nil {
				return false
			}
			*c.Run1 += 10
			return true
		},
		func(c *schema.RunCount) bool {
			if c.ScoredVerdicts == nil || c.Judge != "vlm" {
				return false
			}
			*c.ScoredVerdicts++
			return true
		},
	} {
		dir := lakecopy.Copy(t, dir)
		l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
		m, err := l.Manifest()
		if err != nil {
			t.Fatal(err)
		}
		all := rowsOf[schema.RunCount](t, l, lake.RunCounts)
		done := false
		for i, f := range m.Files {
			if f.Table != lake.RunCounts || done {
				continue
			}
			var rows []schema.RunCount
			for _, c := range all {
				if c.SrcFile == countedFile(m, f) {
					rows = append(rows, c)
				}
			}
			for k := range rows {
				if !done && tamper(&rows[k]) {
					done = true
				}
			}
			if !done {
				continue
			}
			name := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := parquet.WriteFile(name, rows); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(name)
			sum := sha256.Sum256(b)
			m.Files[i].Bytes, m.Files[i].SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
		}
		if !done {
			t.Fatal("nothing tampered with")
		}
		writeManifest(t, dir, m)
		if rep, _ := l.Check(t.Context()); !hasDamage(rep, "counts") {
			t.Errorf("tampered run counts not found: %+v", rep.Problems)
		}
	}
}

// countedFile returns the verdicts file a run_counts file of m counts.
func countedFile(m lake.Manifest, counts lake.FileEntry) string {
	for _, f := range m.Files {
		if f.Table == lake.Verdicts && slices.Equal(f.Partition, counts.Partition) {
			return f.Path
		}
	}
	return ""
}
