package runcounts

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/trustlake/trustlake/lake"
)

// PerEpisode reports whether the run counts of a snapshot are complete and hold
// exactly one row per (judge, condition, episode): each partition has one
// run_counts file (one ingest, or compacted) and no episode continues in a
// further row (the largest seq, from the files' Parquet statistics, is 0).
// Readers may then take the rows as they are instead of summing them per
// episode. A file whose statistics cannot be read counts as not unique.
func PerEpisode(s lake.Snapshot) bool {
	if !s.RunCountsComplete() {
		return false
	}
	seen := map[string]bool{}
	for _, f := range s.Manifest().Files {
		if f.Table != lake.RunCounts {
			continue
		}
		id := strings.Join(f.Partition, "\x00")
		if seen[id] {
			return false
		}
		seen[id] = true
		if top, ok := maxSeq(filepath.Join(s.Root(), filepath.FromSlash(f.Path)), f.Bytes); !ok || top != 0 {
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
