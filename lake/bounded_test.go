package lake_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// dupRows returns n verdicts from n/3 source files, each row's source a
// new file every third row (as an Inspect sample's rows), with repeats of
// earlier keys at the given row numbers.
func dupRows(n int, repeats map[int]int) []schema.Verdict {
	rows := make([]schema.Verdict, n)
	for i := range rows {
		ep := i
		if first, ok := repeats[i]; ok {
			ep = first
		}
		rows[i] = verdict(fmt.Sprintf("ep-%05d", ep), "j", "E1-final", 0, "success", int64(i%3+1))
		rows[i].SrcFile = fmt.Sprintf("log.eval:samples/s%d.json", i/3)
	}
	return rows
}

// TestKeysInMemory: with the batch's keys spilled to disk in runs of 7,
// Duplicates names the same rows, first and repeat, as with every key in
// memory; repeats across runs, within a run, and of a repeat are found.
func TestKeysInMemory(t *testing.T) {
	repeats := map[int]int{5: 1, 40: 2, 41: 2, 99: 98, 150: 0, 151: 100}
	rows := dupRows(200, repeats)
	var want []string
	for _, keep := range []int{0, 7} {
		l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		_, errs := write(t, l, lake.WriterOptions{KeysInMemory: keep}, rows...)
		var got []string
		for _, e := range errs {
			d, ok := e.(*lake.DuplicateError)
			if !ok {
				t.Fatalf("KeysInMemory %d: %v", keep, e)
			}
			got = append(got, fmt.Sprintf("%s:%d first %s:%d", d.File, d.Line, d.FirstFile, d.FirstLine))
		}
		if len(got) != len(repeats) {
			t.Errorf("KeysInMemory %d: %d duplicates, want %d: %v", keep, len(got), len(repeats), got)
		}
		if keep == 0 {
			want = got
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("KeysInMemory %d: duplicates\n%v\nwant (all keys in memory)\n%v", keep, got, want)
		}
		// The spill files are unlinked at once: nothing is left behind.
		left, _ := filepath.Glob(filepath.Join(l.Root(), "_staging", "*"))
		if len(left) > 0 {
			t.Errorf("KeysInMemory %d: left %v", keep, left)
		}
	}
	// With no repeats, the spilled batch commits and reads back whole.
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	clean := dupRows(200, nil)
	if _, errs := write(t, l, lake.WriterOptions{KeysInMemory: 7}, clean...); len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := readAll(t, l); len(got) != len(clean) {
		t.Errorf("read %d rows, wrote %d", len(got), len(clean))
	}
}

// TestBoundedWriter: a dictionary column of many distinct values (every
// row its own _src_file) past the dictionary cap (WriterOptions.
// DictionaryBytes), row groups cut by WriterOptions.RowGroupRows, small
// batches: every row and value reads back, and the groups are as asked.
// The cap is checked as each page ends (parquet-go's DictionaryMaxBytes):
// a group's first page of _src_file indexes is dictionary-encoded, the
// rest PLAIN. Without a cap the same rows stay dictionary-encoded.
func TestBoundedWriter(t *testing.T) {
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]schema.Verdict, 40000)
	for i := range rows {
		rows[i] = verdict(fmt.Sprintf("ep-%05d", i), "j", "E1-final", 0, []string{"success", "failure"}[i%2], 1)
		rows[i].SrcFile = fmt.Sprintf("logs/run-%05d.eval:samples/q%d_epoch_1.json", i, i)
	}
	if _, errs := write(t, l, lake.WriterOptions{RowGroupRows: 20000, BatchRows: 100, DictionaryBytes: 16 << 10}, rows...); len(errs) > 0 {
		t.Fatal(errs)
	}
	if g := rowGroups(t, l); len(g) != 1 || g[0] != 2 {
		t.Errorf("row groups per file %v, want one file of 2 (40,000 rows by 20,000)", g)
	}
	got := map[string]string{}
	err = lake.ReadTable[schema.Verdict](l, lake.Verdicts, func(rs []schema.Verdict) error {
		for _, r := range rs {
			got[r.EpisodeID] = r.SrcFile + " " + *r.Verdict
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if want := r.SrcFile + " " + *r.Verdict; got[r.EpisodeID] != want {
			t.Fatalf("%s: read %q, wrote %q", r.EpisodeID, got[r.EpisodeID], want)
		}
	}
	if len(got) != len(rows) {
		t.Errorf("read %d rows, wrote %d", len(got), len(rows))
	}
	// The _src_file dictionary passed the cap: its later pages are PLAIN;
	// the verdict column (two values) stays dictionary-encoded.
	files, _ := l.Files(lake.Verdicts)
	fh, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	pf, err := parquet.OpenFile(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	plainPages := plainPagesOf(pf)
	// Statistics and page index keep their bounds (Spark filters pages by
	// the page index): the first group's episode ids are ep-00000..ep-19999,
	// and so are the bounds of its pages, in order.
	for i, c := range pf.Metadata().RowGroups[0].Columns {
		if c.MetaData.PathInSchema[0] != "episode_id" {
			continue
		}
		if lo, hi := string(c.MetaData.Statistics.MinValue), string(c.MetaData.Statistics.MaxValue); lo != "ep-00000" || hi != "ep-19999" {
			t.Errorf("row group 0 episode_id statistics %q..%q, want ep-00000..ep-19999", lo, hi)
		}
		ci, err := pf.RowGroups()[0].ColumnChunks()[i].ColumnIndex()
		if err != nil {
			t.Fatal(err)
		}
		if n := ci.NumPages(); n == 0 || string(ci.MinValue(0).ByteArray()) != "ep-00000" || string(ci.MaxValue(n-1).ByteArray()) != "ep-19999" {
			t.Errorf("row group 0 episode_id page index: %d pages, first min %q, last max %q", n, ci.MinValue(0), ci.MaxValue(max(n-1, 0)))
		}
	}
	if plainPages["_src_file"] == 0 || plainPages["verdict"] != 0 {
		t.Errorf("PLAIN data pages by column %v: want some for _src_file (dictionary past its cap), none for verdict", plainPages)
	}

	uncapped, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := write(t, uncapped, lake.WriterOptions{RowGroupRows: 20000, BatchRows: 100}, rows...); len(errs) > 0 {
		t.Fatal(errs)
	}
	files, _ = uncapped.Files(lake.Verdicts)
	fu, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fu.Close()
	st, _ = fu.Stat()
	if pf, err = parquet.OpenFile(fu, st.Size()); err != nil {
		t.Fatal(err)
	}
	if p := plainPagesOf(pf); p["_src_file"] != 0 || p["episode_id"] != 0 {
		t.Errorf("without a cap, PLAIN data pages by column %v: want none", p)
	}
}

// plainPagesOf counts the PLAIN data pages of each column of a file.
func plainPagesOf(pf *parquet.File) map[string]int {
	plain := map[string]int{}
	for _, rg := range pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			for _, es := range c.MetaData.EncodingStats {
				if (es.PageType == format.DataPage || es.PageType == format.DataPageV2) && es.Encoding == format.Plain {
					plain[c.MetaData.PathInSchema[0]] += int(es.Count)
				}
			}
		}
	}
	return plain
}
