package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestAnalysisGC: the analysis commands turn the collector off below a
// 1 GiB soft limit, and leave the runtime alone when the user set GOGC or
// GOMEMLIMIT.
func TestAnalysisGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run("with "+env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, map[string]string{"GOGC": "50", "GOMEMLIMIT": "2GiB"}[env])
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			analysisGC()
			if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
				t.Errorf("%s set: GC percent %d, limit %d; want the runtime's unchanged (100, no limit)", env, p, l)
			}
		})
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	analysisGC()
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != -1 || l != analysisHeapLimit {
		t.Errorf("GC percent %d, limit %d; want -1 (off) and %d", p, l, analysisHeapLimit)
	}
}
