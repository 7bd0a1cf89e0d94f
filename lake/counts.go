package lake

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake/keyindex"
	"github.com/trustlake/trustlake/schema"
)

// Run counts. Every verdicts data file has a companion file in run_counts,
// named after it (countsPath), holding the file's runs
// counted per (judge, condition, episode) (schema.RunCount). It is written
// by the file's writer and committed with it; a commit that supersedes the
// data file (--replace, compaction) supersedes the companion too, and the
// file that replaces it gets its own. So the counts of a snapshot are
// exact when every verdicts file has its companion (RunCountsComplete);
// metrics read the counts instead of the runs, and fall back to the runs
// in a lake written before run_counts existed (or `lake compact` adds the
// missing companions).

// countsPath returns the run_counts companion of a verdicts data file:
// run_counts/<partition>/part-<uuid>.counts.parquet for
// verdicts/<partition>/part-<uuid>.parquet (its own name, so its key index
// in _keys/ does not collide with the data file's).
func countsPath(verdictsRel string) string {
	return RunCounts + strings.TrimSuffix(strings.TrimPrefix(verdictsRel, Verdicts), ".parquet") + ".counts.parquet"
}

// writeRunCounts writes the companion of the committed verdicts file f,
// counted by c, into tx.
func writeRunCounts(tx *Tx, f FileEntry, c *runCounter) error {
	t, err := LookupTable(RunCounts)
	if err != nil {
		return err
	}
	fw, err := newFileWriterAt[schema.RunCount](tx, t, f.Partition, countsPath(f.Path), 0, 0)
	if err != nil {
		return err
	}
	if err := c.writeTo(fw, f.Path); err != nil {
		return err
	}
	if err := fw.close(); err != nil {
		return fmt.Errorf("write run counts of %s: %w", f.Path, err)
	}
	return nil
}

// verdictDigest reads a verdicts data file's rows once and returns what
// lake check compares with its key index and its run counts.
func verdictDigest(root string, f FileEntry) ([]keyindex.Entry, *runCounter, error) {
	t, err := tableFor[schema.Verdict](Verdicts)
	if err != nil {
		return nil, nil, err
	}
	keys := make([]keyindex.Entry, 0, f.Rows)
	c := newRunCounter()
	var scratch []byte
	err = readRows[schema.Verdict](root, t, f, func(rows []schema.Verdict) error {
		for i := range rows {
			v := &rows[i]
			var e keyindex.Entry
			p := unsafe.Pointer(v)
			e.Key, scratch = t.rows.keyHash(scratch, p)
			e.Content, scratch = t.rows.contentHash(scratch, p)
			keys = append(keys, e)
			c.addRun(v.EpisodeID, v.Run, v.Verdict, v.Score)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return keys, c, nil
}

// verdictRun is the part of a verdict row that run counts read: a reader
// of this type decodes four columns of a verdicts file, not the row.
type verdictRun struct {
	EpisodeID string   `parquet:"episode_id"`
	Run       int64    `parquet:"run"`
	Verdict   *string  `parquet:"verdict,optional"`
	Score     *float64 `parquet:"score,optional"`
}

// countFile counts the runs of a committed verdicts data file.
func countFile(root string, f FileEntry) (*runCounter, error) {
	return countPath(filepath.Join(root, filepath.FromSlash(f.Path)), f.Path)
}

// countPath counts the runs of the verdicts data file at name (rel in
// messages).
func countPath(name, rel string) (*runCounter, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	defer fh.Close()
	r := parquet.NewGenericReader[verdictRun](fh)
	defer r.Close()
	c := newRunCounter()
	buf := make([]verdictRun, 1024)
	for {
		n, err := r.Read(buf)
		for _, v := range buf[:n] {
			c.addRun(v.EpisodeID, v.Run, v.Verdict, v.Score)
		}
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", rel, err)
		}
	}
}

// addMissingRunCounts gives every verdicts data file of files that has no
// run_counts companion in the transaction's base one (upgrade of a lake
// written before run_counts). It returns how many it wrote.
func (tx *Tx) addMissingRunCounts(files []FileEntry) (int, error) {
	have := tx.companions()
	n := 0
	for _, f := range files {
		if f.Table != Verdicts || have[countsPath(f.Path)] || tx.removed[f.Path] {
			continue
		}
		c, err := countFile(tx.l.root, f)
		if err != nil {
			return n, err
		}
		if err := writeRunCounts(tx, f, c); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// companions returns the run_counts files of the transaction's base.
func (tx *Tx) companions() map[string]bool {
	have := map[string]bool{}
	for _, f := range tx.base.Files {
		if f.Table == RunCounts {
			have[f.Path] = true
		}
	}
	return have
}

// RunCountsComplete reports whether every verdicts data file of the
// snapshot has its run_counts companion and every companion its data
// file: then the run_counts rows count exactly the verdicts.
func (s Snapshot) RunCountsComplete() bool { return s.m.RunCountsComplete() }

// RunCountsComplete is Snapshot.RunCountsComplete for a manifest read by
// another engine.
func (m Manifest) RunCountsComplete() bool {
	data, counts := map[string]bool{}, map[string]bool{}
	for _, f := range m.Files {
		switch f.Table {
		case Verdicts:
			data[countsPath(f.Path)] = true
		case RunCounts:
			counts[f.Path] = true
		}
	}
	if len(data) != len(counts) {
		return false
	}
	for p := range data {
		if !counts[p] {
			return false
		}
	}
	return true
}

// checkRunCounts compares the companion of a verdicts data file with the
// runs counted from its rows.
// c holds the runs already counted from the file's rows, or is nil.
func checkRunCounts(root string, data FileEntry, counts *FileEntry, c *runCounter) (Problem, bool) {
	if counts == nil {
		return Problem{Path: data.Path, Kind: "no_counts", Detail: "no run_counts companion (written before run_counts; `trustlake lake compact` adds it, metrics read the verdicts meanwhile)"}, false
	}
	bad := func(format string, args ...any) (Problem, bool) {
		return Problem{Path: counts.Path, Kind: "counts", Detail: fmt.Sprintf(format, args...), Damage: true}, false
	}
	if c == nil {
		var err error
		if c, err = countFile(root, data); err != nil {
			return bad("%v", err)
		}
	}
	want := c.result(data.Partition, data.Path)
	t, err := tableFor[schema.RunCount](RunCounts)
	if err != nil {
		return bad("%v", err)
	}
	var got []schema.RunCount
	err = readRows[schema.RunCount](root, t, *counts, func(rows []schema.RunCount) error {
		got = append(got, rows...)
		return nil
	})
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
	return Problem{}, true
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

// RunCountsPerEpisode reports whether the run counts are complete and hold
// exactly one row per (judge, condition, episode): each partition has one
// run_counts file (one ingest, or compacted) and no episode continues in a
// further row (the largest seq, from the files' Parquet statistics, is 0).
// Readers may then take the rows as they are instead of summing them per
// episode. A file whose statistics cannot be read counts as not unique.
func (s Snapshot) RunCountsPerEpisode() bool {
	if !s.m.RunCountsComplete() {
		return false
	}
	seen := map[string]bool{}
	for _, f := range s.m.Files {
		if f.Table != RunCounts {
			continue
		}
		id := strings.Join(f.Partition, "\x00")
		if seen[id] {
			return false
		}
		seen[id] = true
		if top, ok := maxSeq(filepath.Join(s.root, filepath.FromSlash(f.Path)), f.Bytes); !ok || top != 0 {
			return false
		}
	}
	return true
}

// maxSeq returns the largest seq of a run_counts file from the statistics
// in its footer (no page is read).
func maxSeq(name string, size int64) (int64, bool) {
	fh, err := os.Open(name)
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	pf, err := parquet.OpenFile(fh, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return 0, false
	}
	leaf, ok := pf.Schema().Lookup("seq")
	if !ok {
		return 0, false
	}
	var top int64
	for _, rg := range pf.Metadata().RowGroups {
		st := rg.Columns[leaf.ColumnIndex].MetaData.Statistics
		b := st.MaxValue
		if len(b) == 0 {
			b = st.Max
		}
		if len(b) != 8 {
			return 0, false
		}
		top = max(top, int64(binary.LittleEndian.Uint64(b)))
	}
	return top, true
}
