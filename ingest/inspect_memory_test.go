package ingest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
)

// liveHeapIngesting ingests a log into a new lake and returns the largest
// live heap seen after a GC, sampled every 256 samples, and the episodes
// added.
func liveHeapIngesting(t *testing.T, path string) (peak uint64, episodes int64) {
	t.Helper()
	l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	sample := func(int64) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapAlloc)
	}
	st, err := Inspect(context.Background(), l, []string{path}, InspectOptions{}, Options{Progress: sample})
	if err != nil {
		t.Fatal(err)
	}
	return peak, st.Tables[lake.Episodes].Added
}

// TestInspectIngestMemory: the whole `ingest inspect` path (reader,
// mapping, five tables' writers and their Parquet encoders, dedupe keys)
// holds a bounded amount of memory, not one growing with the samples: the
// live heap while ingesting 6,000 samples stays within 12 MiB, plus two
// zstd encoders, of that for 1,500. Between the two the writers' buffers
// fill up to their bounds (8,192-row groups, 64 KiB pages: ~5 MiB);
// nothing is kept per sample (run counts spilled, the ZIP directory walked
// from the file). parquet-go's zstd codec gives each encoder a 16 MiB
// history and keeps one per page being compressed at once, so one to
// three are alive at a peak, whatever the samples. The ingest before these
// bounds (dictionaries of per-sample values, whole row groups, every key
// and source name, the ZIP directory, 4,096-row batches) went from 25.7
// to 83.3 MiB on the same two logs.
func TestInspectIngestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 7,500 samples")
	}
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.eval"), filepath.Join(dir, "big.eval")
	replicateEval(t, small, 1500, zipMethodZstd)
	replicateEval(t, big, 6000, zipMethodZstd)
	ps, n := liveHeapIngesting(t, small)
	pb, m := liveHeapIngesting(t, big)
	if n != 1500 || m != 6000 {
		t.Fatalf("ingested %d and %d episodes, want 1500 and 6000", n, m)
	}
	t.Logf("peak live heap: %.1f MiB at 1,500 samples, %.1f MiB at 6,000", float64(ps)/(1<<20), float64(pb)/(1<<20))
	const zstdEncoder = 16 << 20
	if pb > ps+12<<20+2*zstdEncoder {
		t.Errorf("peak live heap grew from %.1f MiB (1,500 samples) to %.1f MiB (6,000): memory grows with the samples", float64(ps)/(1<<20), float64(pb)/(1<<20))
	}
}
