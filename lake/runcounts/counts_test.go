package runcounts_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// runTotals is what the runs of one (judge, condition, episode) come to:
// counts per verdict value and the sorted scores of score-only runs.
type runTotals struct {
	runs, parse, success, failure, uncertain int64
	scores                                   []float64
}

func (r runTotals) String() string {
	return fmt.Sprintf("runs=%d parse=%d s=%d f=%d u=%d scores=%v", r.runs, r.parse, r.success, r.failure, r.uncertain, r.scores)
}

// totalsFromVerdicts counts the stored verdicts directly (the reference).
func totalsFromVerdicts(t *testing.T, l *lake.Lake) map[string]string {
	t.Helper()
	acc := map[string]*runTotals{}
	for _, v := range rowsOf[schema.Verdict](t, l, lake.Verdicts) {
		k := v.Judge + "|" + v.Condition + "|" + v.EpisodeID
		if acc[k] == nil {
			acc[k] = &runTotals{}
		}
		r := acc[k]
		r.runs++
		switch {
		case v.Verdict == nil:
			r.scores = append(r.scores, *v.Score)
		case *v.Verdict == "parse_error":
			r.parse++
		case *v.Verdict == "success":
			r.success++
		case *v.Verdict == "failure":
			r.failure++
		case *v.Verdict == "uncertain":
			r.uncertain++
		}
	}
	return render(acc)
}

// totalsFromCounts sums the run_counts rows.
func totalsFromCounts(t *testing.T, l *lake.Lake) map[string]string {
	t.Helper()
	acc := map[string]*runTotals{}
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		k := c.Judge + "|" + c.Condition + "|" + c.EpisodeID
		if acc[k] == nil {
			acc[k] = &runTotals{}
		}
		r := acc[k]
		r.runs += c.Runs
		r.parse += c.Parse
		r.success += c.Success
		r.failure += c.Failure
		r.uncertain += c.Uncertain
		for _, s := range []*float64{c.Score1, c.Score2, c.Score3} {
			if s != nil {
				r.scores = append(r.scores, *s)
			}
		}
	}
	return render(acc)
}

func render(acc map[string]*runTotals) map[string]string {
	out := map[string]string{}
	for k, r := range acc {
		slices.Sort(r.scores)
		out[k] = r.String()
	}
	return out
}

// scored is a score-only run (a reward model).
func scored(ep, judge, cond string, run int64, score float64, line int64) schema.Verdict {
	v := verdict(ep, judge, cond, run, "", line)
	v.Verdict, v.Score = nil, &score
	return v
}

// mixedBatch has verdict runs, parse errors and score-only runs, with
// seven score-only runs for some episodes (more than one run_counts row
// holds) and an episode whose runs are not consecutive.
func mixedBatch(offset int64) []schema.Verdict {
	var rows []schema.Verdict
	vals := []string{"success", "failure", "uncertain", "parse_error"}
	for e := 0; e < 6; e++ {
		ep := fmt.Sprintf("ep%d", e)
		for r := int64(1); r <= 3; r++ {
			rows = append(rows, verdict(ep, "vlm", "E1", r+offset, vals[(e+int(r))%4], int64(len(rows)+1)))
		}
		for r := int64(1); r <= int64(1+e); r++ {
			rows = append(rows, scored(ep, "rm", "E1", r+offset, float64(e*10+int(r))/100, int64(len(rows)+1)))
		}
	}
	rows = append(rows, verdict("ep0", "vlm", "E1", 9+offset, "success", int64(len(rows)+1))) // ep0 again, after others
	return rows
}

func checkCounts(t *testing.T, l *lake.Lake, when string) {
	t.Helper()
	want, got := totalsFromVerdicts(t, l), totalsFromCounts(t, l)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s: run counts give %q, the verdicts %q", when, k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: run counts for %d episodes, verdicts for %d", when, len(got), len(want))
	}
	snap, err := l.Snapshot()
	if err != nil || !snap.RunCountsComplete() {
		t.Errorf("%s: run counts not complete (%v)", when, err)
	}
	rep, err := l.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if p.Damage || p.Kind != "no_keys" { // no_keys: other tables of the old lake
			t.Errorf("%s: lake check: %+v", when, p)
		}
	}
	if rep.Rows[lake.RunCounts] == 0 {
		t.Errorf("%s: no run_counts rows", when)
	}
}

func perEpisode(t *testing.T, l *lake.Lake) bool {
	t.Helper()
	snap, err := l.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return runcounts.PerEpisode(snap)
}

func filesOf(t *testing.T, l *lake.Lake, table string) []string {
	t.Helper()
	files, err := l.Files(table)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestRunCounts: every write of verdicts commits their run counts with
// them; two batches add up, --replace and compaction supersede the
// companions of the files they supersede, and the sums always equal the
// runs counted from the verdicts.
func TestRunCounts(t *testing.T) {
	l, _ := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if st, errs := write(t, l, lake.WriterOptions{}, mixedBatch(0)...); len(errs) > 0 || st.Added == 0 {
		t.Fatalf("batch 1: %+v %v", st, errs)
	}
	checkCounts(t, l, "one batch")
	var maxSeq int64
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		maxSeq = max(maxSeq, c.Seq)
		if !strings.HasPrefix(c.SrcFile, lake.Verdicts+"/judge="+c.Judge+"/") {
			t.Errorf("run count without its verdicts file: %+v", c)
		}
	}
	if maxSeq != 1 { // ep5 has six score-only runs: two rows
		t.Errorf("max seq %d, want 1 (six score-only runs need two rows)", maxSeq)
	}

	if perEpisode(t, l) { // ep5's six scores take two rows
		t.Error("one batch with an episode in two rows: one row per episode")
	}
	single, _ := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	write(t, single, lake.WriterOptions{}, mixedBatch(0)[:10]...) // ep0..ep2: at most three scores each
	if !perEpisode(t, single) {
		t.Error("one batch, at most three scores per episode: not one row per episode")
	}

	if _, errs := write(t, l, lake.WriterOptions{}, mixedBatch(100)...); len(errs) > 0 {
		t.Fatalf("batch 2: %v", errs)
	}
	if perEpisode(t, l) {
		t.Error("two batches: one row per episode")
	}
	checkCounts(t, l, "two batches")
	if v, c := filesOf(t, l, lake.Verdicts), filesOf(t, l, lake.RunCounts); len(v) != 4 || len(c) != 4 {
		t.Fatalf("two batches: %d verdicts files, %d run_counts files, want 4 and 4", len(v), len(c))
	}

	// --replace: a run changes its verdict, a score-only run its score.
	changed := []schema.Verdict{verdict("ep1", "vlm", "E1", 2, "success", 1), scored("ep3", "rm", "E1", 101, 0.99, 2)}
	if st, errs := write(t, l, lake.WriterOptions{Replace: true}, changed...); len(errs) > 0 || st.Replaced != 2 {
		t.Fatalf("replace: %+v %v", st, errs)
	}
	checkCounts(t, l, "after --replace")

	st, err := lake.Compact(t.Context(), l, lake.Verdicts)
	if err != nil || st.Partitions != 2 {
		t.Fatalf("compact: %+v %v", st, err)
	}
	checkCounts(t, l, "after compact")
	if v, c := filesOf(t, l, lake.Verdicts), filesOf(t, l, lake.RunCounts); len(v) != 2 || len(c) != 2 {
		t.Fatalf("after compact: %d verdicts files, %d run_counts files, want 2 and 2", len(v), len(c))
	}
	if perEpisode(t, l) { // still six scores for ep5 (and more) in one file
		t.Error("after compact, episodes with more than three scores: one row per episode")
	}
	if st, err := lake.Compact(t.Context(), l, lake.RunCounts); err != nil || st.Partitions != 0 {
		t.Fatalf("compact of the derived table: %+v %v", st, err)
	}
}

// TestRunCountsUpgrade: a lake written before run_counts reads as
// incomplete (metrics then count the verdicts), lake check notes no_counts
// without damage, the first write to a partition counts its old files, and
// lake compact counts the rest.
func TestRunCountsUpgrade(t *testing.T) {
	l, err := lake.Open(lakecopy.Copy(t, oldLake), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := l.Snapshot()
	if snap.RunCountsComplete() {
		t.Fatal("old lake: run counts complete")
	}
	rep, err := l.Check(t.Context())
	if err != nil || rep.Damaged() {
		t.Fatalf("old lake: %+v %v", rep, err)
	}
	noCounts := 0
	for _, p := range rep.Problems {
		if p.Kind == "no_counts" {
			noCounts++
		}
	}
	old := filesOf(t, l, lake.Verdicts)
	if noCounts != len(old) || len(old) < 2 {
		t.Fatalf("%d no_counts notes for %d verdicts files", noCounts, len(old))
	}
	// A write to one partition counts its old files too.
	if _, errs := write(t, l, lake.WriterOptions{}, verdict("new", "sim:vlm-a", "E1-final", 1, "success", 1)); len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := len(filesOf(t, l, lake.RunCounts)); n < 2 || n >= len(old)+1 {
		t.Errorf("after a write to one partition: %d run_counts files (old verdicts files: %d)", n, len(old))
	}
	st, err := lake.Compact(t.Context(), l, lake.Verdicts)
	if err != nil || st.Partitions+st.Counted == 0 {
		t.Fatalf("compact: %+v %v", st, err)
	}
	checkCounts(t, l, "after upgrade")
}

// TestCheckFindsWrongRunCounts: a run_counts file whose counts do not
// match its verdicts file is damage, even when its bytes match the
// manifest; so is a run_counts file whose verdicts file is gone.
func TestCheckFindsWrongRunCounts(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	write(t, l, lake.WriterOptions{}, mixedBatch(0)...)
	m, err := l.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	var entry *lake.FileEntry
	for i, f := range m.Files {
		if f.Table == lake.RunCounts && f.Partition[0] == "vlm" {
			entry = &m.Files[i]
		}
	}
	if entry == nil {
		t.Fatal("no run_counts file for judge vlm")
	}
	var rows []schema.RunCount
	for _, c := range rowsOf[schema.RunCount](t, l, lake.RunCounts) {
		if c.Judge == "vlm" {
			rows = append(rows, c)
		}
	}
	rows[0].Success++ // one run counted twice
	name := filepath.Join(dir, filepath.FromSlash(entry.Path))
	if err := parquet.WriteFile(name, rows); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(name)
	sum := sha256.Sum256(b)
	entry.Bytes, entry.SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
	writeManifest(t, dir, m)
	rep, _ := l.Check(t.Context())
	if !hasDamage(rep, "counts") {
		t.Fatalf("wrong count not found: %+v", rep.Problems)
	}

	// A run_counts file left without its verdicts file.
	l2dir := t.TempDir()
	l2, _ := lake.Open(l2dir, runcounts.With(lake.Options{}))
	write(t, l2, lake.WriterOptions{}, mixedBatch(0)...)
	m2, _ := l2.Manifest()
	var keep []lake.FileEntry
	for _, f := range m2.Files {
		if f.Table != lake.Verdicts || f.Partition[0] != "rm" {
			keep = append(keep, f)
		}
	}
	m2.Files = keep
	writeManifest(t, l2dir, m2)
	rep, _ = l2.Check(t.Context())
	if !hasDamage(rep, "counts") {
		t.Fatalf("stray run counts not found: %+v", rep.Problems)
	}
	if snap, _ := l2.Snapshot(); snap.RunCountsComplete() {
		t.Error("stray run counts: complete")
	}
}

func hasDamage(rep lake.CheckReport, kind string) bool {
	for _, p := range rep.Problems {
		if p.Kind == kind && p.Damage {
			return true
		}
	}
	return false
}

func writeManifest(t *testing.T, dir string, m lake.Manifest) {
	t.Helper()
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, lake.ManifestPath), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
