package lake_test

import (
	"os"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// TestFreeTextColumnsHaveNoBounds: columns tagged lake:"freetext" (a
// judge's raw reply, extra JSON) are written without min/max statistics
// in the footer and the page index; the other columns keep theirs.
func TestFreeTextColumnsHaveNoBounds(t *testing.T) {
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	rows := []schema.Verdict{
		verdict("ep-1", "j", "c", 1, schema.VerdictParseError, 1),
		verdict("ep-2", "j", "c", 1, schema.VerdictSuccess, 2),
	}
	rows[0].Raw, rows[1].Raw = strp("I think the agent... succeeded"), strp("a long reply")
	rows[0].Extra = `{"note": "x"}`
	if _, errs := write(t, l, lake.WriterOptions{}, rows...); len(errs) > 0 {
		t.Fatal(errs)
	}
	files, err := l.Files(lake.Verdicts)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, %v", files, err)
	}
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
	want := map[string]bool{"raw": false, "extra": false, "episode_id": true, "verdict": true, "run": true}
	for i, c := range pf.Metadata().RowGroups[0].Columns {
		name := c.MetaData.PathInSchema[0]
		wantBounds, ok := want[name]
		if !ok {
			continue
		}
		delete(want, name)
		s := c.MetaData.Statistics
		if got := s.MinValue != nil || s.MaxValue != nil; got != wantBounds {
			t.Errorf("%s: chunk statistics have bounds = %v, want %v", name, got, wantBounds)
		}
		ci, err := pf.RowGroups()[0].ColumnChunks()[i].ColumnIndex()
		if err != nil {
			t.Fatal(err)
		}
		if got := len(ci.MinValue(0).Bytes()) > 0; got != wantBounds {
			t.Errorf("%s: page index has bounds = %v, want %v", name, got, wantBounds)
		}
	}
	if len(want) > 0 {
		t.Errorf("columns not found: %v", want)
	}
}
