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

// analysisGC turns the collector off below analysisHeapLimit, unless the
// user set GOGC or GOMEMLIMIT.
func analysisGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(analysisHeapLimit)
}
