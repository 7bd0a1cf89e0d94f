package lake_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/laketest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

func strp(s string) *string { return &s }

// verdict and write are laketest's, named as the tests call them.
var (
	verdict = laketest.Verdict
	write   = laketest.Write
)

func vkey(r schema.Verdict) string {
	return fmt.Sprintf("%s/%s/%s/%d", r.EpisodeID, r.Judge, r.Condition, r.Run)
}

func readAll(t *testing.T, l *lake.Lake) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := lake.ReadTable[schema.Verdict](l, lake.Verdicts, func(rows []schema.Verdict) error {
		for _, r := range rows {
			got[vkey(r)] = *r.Verdict
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWriteDedupeReplace(t *testing.T) {
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	a := verdict("ep1", "sim:vlm a/b", "E2+claim", 1, "success", 1)
	b := verdict("ep2", "sim:vlm a/b", "E2+claim", 1, "failure", 2)
	st, errs := write(t, l, lake.WriterOptions{}, a, b)
	if len(errs) > 0 || st.Added != 2 {
		t.Fatalf("first write: %+v %v", st, errs)
	}
	// Identical content again: a no-op.
	st, errs = write(t, l, lake.WriterOptions{}, a, b)
	if len(errs) > 0 || st.Added != 0 || st.Unchanged != 2 {
		t.Fatalf("re-ingest: %+v %v", st, errs)
	}
	m, _ := l.Manifest()
	if got, want := m.Version, int64(1); got != want {
		t.Errorf("manifest version after no-op = %d, want %d", got, want)
	}
	// Same key, different content: a conflict naming the first source.
	changed := verdict("ep1", "sim:vlm a/b", "E2+claim", 1, "failure", 9)
	changed.SrcFile = "w.jsonl"
	_, errs = write(t, l, lake.WriterOptions{}, changed)
	var ce *lake.ConflictError
	if len(errs) != 1 || !errors.As(errs[0], &ce) || ce.Existing != "v.jsonl:1" {
		t.Fatalf("conflict: %v", errs)
	}
	if got := readAll(t, l); got[vkey(a)] != "success" || len(got) != 2 {
		t.Fatalf("after refused conflict: %v", got)
	}
	// --replace overrides it and keeps the other row.
	st, errs = write(t, l, lake.WriterOptions{Replace: true}, changed)
	if len(errs) > 0 || st.Replaced != 1 {
		t.Fatalf("replace: %+v %v", st, errs)
	}
	got := readAll(t, l)
	if got[vkey(a)] != "failure" || got[vkey(b)] != "failure" || len(got) != 2 {
		t.Fatalf("after replace: %v", got)
	}
	rep, err := l.Check(t.Context())
	if err != nil || rep.Damaged() || rep.Rows[lake.Verdicts] != 2 {
		t.Fatalf("check: %+v %v", rep, err)
	}
}

func TestDuplicateInBatch(t *testing.T) {
	l, _ := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	a := verdict("ep1", "j", "E1-final", 1, "success", 1)
	b := verdict("ep2", "j", "E1-final", 1, "success", 3)
	a2 := verdict("ep1", "j", "E1-final", 1, "success", 7)
	a3 := verdict("ep1", "j", "E1-final", 1, "failure", 9)
	_, errs := write(t, l, lake.WriterOptions{}, a, b, a2, a3)
	var d1, d2 *lake.DuplicateError
	if len(errs) != 2 || !errors.As(errs[0], &d1) || !errors.As(errs[1], &d2) {
		t.Fatalf("got %v", errs)
	}
	if d1.Line != 7 || d1.FirstLine != 1 || d2.Line != 9 || d2.FirstLine != 1 || d1.Error() != "same natural key as v.jsonl:1" {
		t.Fatalf("duplicates %+v %+v", d1, d2)
	}
	if got := readAll(t, l); len(got) != 0 {
		t.Fatalf("rejected batch left rows: %v", got)
	}
	rep, _ := l.Check(t.Context())
	if len(rep.Problems) != 0 {
		t.Fatalf("rolled-back batch left files: %+v", rep.Problems)
	}
}

func TestCheckFindsDamageAndOrphans(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	write(t, l, lake.WriterOptions{}, verdict("ep1", "j", "c", 1, "success", 1))
	files, _ := l.Files(lake.Verdicts)
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	orphan := filepath.Join(filepath.Dir(files[0]), "part-left.parquet.tmp")
	os.WriteFile(orphan, []byte("x"), 0o644)
	rep, _ := l.Check(context.Background())
	if rep.Damaged() || len(rep.Problems) != 1 || rep.Problems[0].Kind != "orphan" {
		t.Fatalf("orphan: %+v", rep.Problems)
	}
	// The next writer removes the orphan.
	write(t, l, lake.WriterOptions{}, verdict("ep2", "j", "c", 1, "success", 2))
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("orphan survived the next write: %v", err)
	}
	// Flip a byte: damage.
	b, _ := os.ReadFile(files[0])
	b[len(b)/2] ^= 0xff
	os.WriteFile(files[0], b, 0o644)
	rep, _ = l.Check(context.Background())
	if !rep.Damaged() {
		t.Fatalf("corruption not found: %+v", rep)
	}
}

func TestLockTimeout(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{LockTimeout: 50e6}))
	tx, err := l.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	l2, _ := lake.Open(dir, runcounts.With(lake.Options{LockTimeout: 50e6}))
	if _, err := l2.Begin(t.Context()); !errors.Is(err, lake.ErrLocked) {
		t.Fatalf("second writer: %v, want ErrLocked", err)
	}
}

// FuzzPartitionDir: a partition folder's name decodes back (as DuckDB and
// Spark decode hive folders) to the value it was made of.
func FuzzPartitionDir(f *testing.F) {
	for _, v := range []string{"sim:vlm-a", "a/b c+d=e%", "ünï", "x..y", "a%1z"} {
		f.Add(v)
	}
	tab, err := lake.LookupTable(lake.Episodes)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		dir, err := lake.PartitionDir(tab, []string{v})
		if v == "" {
			if err == nil {
				t.Fatalf("empty value gave %q", dir)
			}
			return
		}
		seg := strings.TrimPrefix(dir, lake.Episodes+"/agent=")
		if got, err := url.PathUnescape(seg); err != nil || got != v || strings.Contains(seg, "/") {
			t.Fatalf("%q: folder %q decodes to %q, %v", v, dir, got, err)
		}
	})
}

func TestCompact(t *testing.T) {
	l, _ := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	for i := 0; i < 3; i++ {
		write(t, l, lake.WriterOptions{}, verdict(fmt.Sprint("ep", i), "j", "E1-final", 1, "success", int64(i+1)),
			verdict(fmt.Sprint("ep", i), "j", "E2-lastk", 1, "failure", int64(i+1)))
	}
	before := readAll(t, l)
	files, _ := l.Files(lake.Verdicts)
	if len(files) != 6 {
		t.Fatalf("files before = %d", len(files))
	}
	st, err := lake.Compact(t.Context(), l, lake.Verdicts)
	if err != nil {
		t.Fatal(err)
	}
	if st.Partitions != 2 || st.FilesIn != 6 || st.FilesOut != 2 || st.Rows != 6 {
		t.Fatalf("stats %+v", st)
	}
	files, _ = l.Files(lake.Verdicts)
	if len(files) != 2 {
		t.Fatalf("files after = %d", len(files))
	}
	after := readAll(t, l)
	if len(after) != len(before) {
		t.Fatalf("rows %d → %d", len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%q: %s → %s", k, v, after[k])
		}
	}
	rep, _ := l.Check(t.Context())
	if rep.Damaged() {
		t.Fatalf("check after compact: %+v", rep.Problems)
	}
	// Nothing left to do: no new commit.
	m1, _ := l.Manifest()
	if st, _ := lake.Compact(t.Context(), l, lake.Verdicts); st.Partitions != 0 {
		t.Errorf("second compact: %+v", st)
	}
	if m2, _ := l.Manifest(); m2.Version != m1.Version {
		t.Errorf("no-op compact committed: %d → %d", m1.Version, m2.Version)
	}
}

// TestCheckVerifiesKeyIndex: a missing or altered key index is damage, and
// an entry that disagrees with its row is found even when the manifest's
// sha256 was updated to match.
func TestCheckVerifiesKeyIndex(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	write(t, l, lake.WriterOptions{}, verdict("ep1", "j", "c", 1, "success", 1), verdict("ep2", "j", "c", 1, "failure", 2))
	m, _ := l.Manifest()
	f := m.Files[0]
	if f.Keys == "" || f.KeysBytes != 8+2*24 {
		t.Fatalf("entry without key index: %+v", f)
	}
	keys := filepath.Join(dir, f.Keys)
	orig, _ := os.ReadFile(keys)
	// Altered entry (content hash of row 1), manifest sha fixed up.
	b := append([]byte(nil), orig...)
	b[8+24+16] ^= 1
	os.WriteFile(keys, b, 0o644)
	sum := sha256.Sum256(b)
	raw, _ := os.ReadFile(filepath.Join(dir, "_manifest", "manifest.json"))
	raw = bytes.Replace(raw, []byte(f.KeysSHA256), []byte(hex.EncodeToString(sum[:])), 1)
	os.WriteFile(filepath.Join(dir, "_manifest", "manifest.json"), raw, 0o644)
	rep, _ := l.Check(t.Context())
	if !rep.Damaged() || rep.Problems[0].Kind != "keys" || !strings.Contains(rep.Problems[0].Detail, "row 1") {
		t.Fatalf("altered entry not found: %+v", rep.Problems)
	}
	// Missing.
	os.Remove(keys)
	rep, _ = l.Check(t.Context())
	if !rep.Damaged() || !strings.Contains(rep.Problems[0].Detail, "does not exist") {
		t.Fatalf("missing index not found: %+v", rep.Problems)
	}
}

// TestManyDuplicatesOfOneKey: every repeat names the first row, in input
// order, also when one key repeats thousands of times.
func TestManyDuplicatesOfOneKey(t *testing.T) {
	l, _ := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	var rows []schema.Verdict
	for i := 0; i < 3000; i++ {
		rows = append(rows, verdict(fmt.Sprint("ep", i%1000), "j", "E1-final", 1, "success", int64(i+1)))
	}
	rows = append(rows, verdict("same", "j", "E1-final", 1, "success", 5000))
	for i := 0; i < 100; i++ {
		rows = append(rows, verdict("same", "j", "E1-final", 1, "success", int64(5001+i)))
	}
	_, errs := write(t, l, lake.WriterOptions{}, rows...)
	if len(errs) != 2000+100 {
		t.Fatalf("%d duplicates, want 2100", len(errs))
	}
	for i, e := range errs {
		var d *lake.DuplicateError
		if !errors.As(e, &d) {
			t.Fatal(e)
		}
		want := int64(i%1000 + 1)
		if i >= 2000 {
			want = 5000
		}
		if d.FirstLine != want || (i > 0 && d.Line <= errs[i-1].(*lake.DuplicateError).Line) {
			t.Fatalf("duplicate %d: %+v (first line want %d)", i, d, want)
		}
	}
}

// CheckSizes finds what a stat can see (a missing or truncated file, a
// missing key index, orphans) and leaves same-size corruption to Check.
func TestCheckSizes(t *testing.T) {
	dir := t.TempDir()
	l, _ := lake.Open(dir, runcounts.With(lake.Options{}))
	write(t, l, lake.WriterOptions{}, verdict("ep1", "j", "c", 1, "success", 1), verdict("ep2", "j", "c", 1, "failure", 2))
	files, _ := l.Files(lake.Verdicts)
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	rep, err := l.CheckSizes(t.Context())
	if err != nil || rep.Damaged() || len(rep.Problems) != 0 || rep.Files != 2 || rep.Rows[lake.Verdicts] != 2 || rep.Rows[lake.RunCounts] != 2 {
		t.Fatalf("clean lake: %+v %v", rep, err)
	}
	orphan := filepath.Join(filepath.Dir(files[0]), "part-left.parquet.tmp")
	os.WriteFile(orphan, []byte("x"), 0o644)
	b, _ := os.ReadFile(files[0])
	b[len(b)/2] ^= 0xff // same size: only the full Check sees it
	os.WriteFile(files[0], b, 0o644)
	rep, _ = l.CheckSizes(t.Context())
	if rep.Damaged() || len(rep.Problems) != 1 || rep.Problems[0].Kind != "orphan" {
		t.Fatalf("flipped byte and orphan: %+v", rep.Problems)
	}
	if full, _ := l.Check(t.Context()); !full.Damaged() {
		t.Fatalf("full check missed the flipped byte: %+v", full.Problems)
	}
	os.WriteFile(files[0], b[:len(b)-1], 0o644)
	rep, _ = l.CheckSizes(t.Context())
	if !rep.Damaged() || rep.Problems[0].Kind != "size" {
		t.Fatalf("truncated file: %+v", rep.Problems)
	}
	os.Remove(files[0])
	rep, _ = l.CheckSizes(t.Context())
	if !rep.Damaged() || rep.Problems[0].Kind != "missing" {
		t.Fatalf("removed file: %+v", rep.Problems)
	}
}
