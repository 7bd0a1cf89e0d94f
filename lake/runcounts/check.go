package runcounts

import (
	"fmt"
	"path/filepath"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// verdictRun is the part of a verdict row that run counts read: a reader
// of this type decodes four columns of a verdicts file, not the row.
type verdictRun struct {
	EpisodeID string   `parquet:"episode_id"`
	Run       int64    `parquet:"run"`
	Verdict   *string  `parquet:"verdict,optional"`
	Score     *float64 `parquet:"score,optional"`
}

// countPath counts the runs of the verdicts data file at name (rel in
// messages).
func countPath(name, rel string) (*runCounter, error) {
	c := newRunCounter()
	err := lake.ReadFile(name, rel, func(runs []verdictRun) error {
		for _, v := range runs {
			c.addRun(v.EpisodeID, v.Run, v.Verdict, v.Score)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// checkRunCounts compares the run_counts file of a verdicts data file
// with the runs counted from its rows: c when not nil, else counted now.
func checkRunCounts(root string, data, counts lake.FileEntry, c *runCounter) (lake.Problem, bool) {
	bad := func(format string, args ...any) (lake.Problem, bool) {
		return lake.Problem{Path: counts.Path, Kind: "counts", Detail: fmt.Sprintf(format, args...), Damage: true}, false
	}
	if c == nil {
		var err error
		if c, err = countPath(filepath.Join(root, filepath.FromSlash(data.Path)), data.Path); err != nil {
			return bad("%v", err)
		}
	}
	want := c.result(data.Partition, data.Path)
	got, err := readCounts(filepath.Join(root, filepath.FromSlash(counts.Path)), counts.Path)
	if err != nil {
		return bad("%v", err)
	}
	if len(got) != len(want) {
		return bad("%d rows, the runs of %s give %d (counts and verdicts disagree)", len(got), data.Path, len(want))
	}
	for i := range want {
		if !sameRunCount(got[i], want[i]) {
			return bad("row %d: %s, the runs of %s give %s (counts and verdicts disagree)", i, runCountString(got[i]), data.Path, runCountString(want[i]))
		}
	}
	return lake.Problem{}, true
}

// readCounts reads the rows of the run_counts file at name (rel in
// messages); their partition fields stay empty.
func readCounts(name, rel string) ([]schema.RunCount, error) {
	var out []schema.RunCount
	err := lake.ReadFile(name, rel, func(rows []schema.RunCount) error {
		out = append(out, rows...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sameRunCount compares a stored row of one file's run counts with the
// row counted from the file's runs (provenance aside). A stored row
// written before run numbers were kept (ScoredVerdicts nil) has neither
// run numbers nor ScoredVerdicts: the rest must agree.
func sameRunCount(stored, counted schema.RunCount) bool {
	a, b := stored, counted
	if a.ScoredVerdicts == nil {
		if a.Run1 != nil || a.Run2 != nil || a.Run3 != nil {
			return false
		}
		b.Run1, b.Run2, b.Run3, b.ScoredVerdicts = nil, nil, nil, nil
	}
	return a.EpisodeID == b.EpisodeID && a.Seq == b.Seq && a.Runs == b.Runs && a.Parse == b.Parse &&
		a.Success == b.Success && a.Failure == b.Failure && a.Uncertain == b.Uncertain &&
		same(a.Score1, b.Score1) && same(a.Score2, b.Score2) && same(a.Score3, b.Score3) &&
		same(a.Run1, b.Run1) && same(a.Run2, b.Run2) && same(a.Run3, b.Run3) && same(a.ScoredVerdicts, b.ScoredVerdicts)
}

// same reports whether x and y are both nil or both point to equal values.
func same[T comparable](x, y *T) bool {
	return x == nil && y == nil || x != nil && y != nil && *x == *y
}

func runCountString(r schema.RunCount) string {
	s := fmt.Sprintf("episode %s seq %d: runs=%d parse_error=%d success=%d failure=%d uncertain=%d",
		r.EpisodeID, r.Seq, r.Runs, r.Parse, r.Success, r.Failure, r.Uncertain)
	if r.ScoredVerdicts != nil {
		s += fmt.Sprintf(" scored_verdicts=%d", *r.ScoredVerdicts)
	}
	s += " scores=["
	for j, p := range []*float64{r.Score1, r.Score2, r.Score3} {
		if p != nil {
			s += fmt.Sprintf(" %v", *p)
		}
		if run := []*int64{r.Run1, r.Run2, r.Run3}[j]; run != nil {
			s += fmt.Sprintf(" (run %d)", *run)
		}
	}
	return s + " ]"
}
