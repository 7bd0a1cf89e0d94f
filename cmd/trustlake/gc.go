package main

import (
	"os"
	"runtime/debug"
)

// analysisHeapLimit is the Go heap the analysis commands (metrics,
// compare, threshold, checklist, report) let grow before the collector
// runs. They are short batch processes whose Go heap holds per-cell
// tallies and bootstrap columns (tens of MiB on a 1M-verdict lake; DuckDB's
// memory is not Go heap), so collecting while they compute only costs:
// on the metrics bench the collector's cycles (8, mostly concurrent with
// DuckDB's threads) made the command ~10% slower. The limit is soft:
// past it the collector runs to keep the heap near it, taking at most
// about half the CPU while the live heap is larger.
const analysisHeapLimit = 1 << 30

// hugeHeapBytes is the Go heap analysisGC asks to be backed by
// transparent huge pages (adviseHugeHeap): more than a report on the
// 1M-verdict bench lake allocates (~80 MB).
const hugeHeapBytes = 160 << 20

// analysisGC turns the collector off below analysisHeapLimit, unless the
// user set GOGC or GOMEMLIMIT. With the collector off every allocation is
// memory the process has not touched yet, and each 4 KiB page of it
// faults once (~35k faults a report on the bench lake, ~1.5 µs each):
// so it also asks for huge pages on the heap the command will use
// (adviseHugeHeap; a no-op where not supported). Only memory changes:
// every result is the same.
func analysisGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(analysisHeapLimit)
	_, _ = adviseHugeHeap(hugeHeapBytes) // best effort: without huge pages, 4 KiB pages as before
}
