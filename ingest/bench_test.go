package ingest_test

import (
	"os"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
)

// BenchmarkVerdictsFile ingests $TRUSTLAKE_BENCH_VERDICTS (a JSONL file,
// e.g. from `trustlake gen --verdict-rows 1000000 --single-verdicts-file`).
func BenchmarkVerdictsFile(b *testing.B) {
	path := os.Getenv("TRUSTLAKE_BENCH_VERDICTS")
	if path == "" {
		b.Skip("set TRUSTLAKE_BENCH_VERDICTS to a verdict JSONL file")
	}
	for i := 0; i < b.N; i++ {
		l, err := lake.Open(b.TempDir(), runcounts.With(lake.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ingest.Verdicts(b.Context(), l, []string{path}, ingest.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
