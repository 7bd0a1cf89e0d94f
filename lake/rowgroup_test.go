package lake_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// wideVerdicts returns n verdicts of one partition, each with ~2 KiB of
// incompressible text in extra (as raw judge replies are).
func wideVerdicts(n int) []schema.Verdict {
	rows := make([]schema.Verdict, n)
	for i := range rows {
		var sb strings.Builder
		for j := 0; sb.Len() < 2048; j++ {
			sum := sha256.Sum256(fmt.Appendf(nil, "%d/%d", i, j))
			sb.WriteString(hex.EncodeToString(sum[:]))
		}
		rows[i] = verdict(fmt.Sprintf("ep-%05d", i), "j", "E1-final", 0, "success", int64(i+1))
		rows[i].Extra = fmt.Sprintf("{%q:%q}", "raw", sb.String())
	}
	return rows
}

// rowGroups counts the row groups of each data file of the verdicts table.
func rowGroups(t *testing.T, l *lake.Lake) []int {
	t.Helper()
	files, err := l.Files(lake.Verdicts)
	if err != nil {
		t.Fatal(err)
	}
	var groups []int
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		pf, err := parquet.OpenFile(fh, st.Size())
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, len(pf.RowGroups()))
		fh.Close()
	}
	return groups
}

// TestRowGroupBytes: wide rows cut row groups by size (so the writer's
// memory is bounded whatever the row count); every row reads back; with
// the default bound the same rows make one row group.
func TestRowGroupBytes(t *testing.T) {
	rows := wideVerdicts(3000) // ~6 MiB of text
	for _, tc := range []struct {
		bytes int64
		min   int
		max   int
	}{{512 << 10, 4, 1 << 30}, {0, 1, 1}} {
		l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{RowGroupBytes: tc.bytes}))
		if err != nil {
			t.Fatal(err)
		}
		if _, errs := write(t, l, lake.WriterOptions{}, rows...); len(errs) > 0 {
			t.Fatal(errs)
		}
		g := rowGroups(t, l)
		if len(g) != 1 || g[0] < tc.min || g[0] > tc.max {
			t.Errorf("RowGroupBytes %d: row groups per file %v, want one file with %d..%d", tc.bytes, g, tc.min, tc.max)
		}
		if got := readAll(t, l); len(got) != len(rows) {
			t.Errorf("RowGroupBytes %d: read %d rows, wrote %d", tc.bytes, len(got), len(rows))
		}
	}
}
