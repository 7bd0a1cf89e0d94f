package sim

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkGenerate1M writes 1,000,008 verdict rows (27,778 episodes) into
// one file, with no, minimal and full episode folders. Episode folders
// dominate: creating files is what costs, not generating rows.
func BenchmarkGenerate1M(b *testing.B) {
	for _, mode := range []struct {
		name string
		mode EpisodeFiles
	}{{"verdicts-only", EpisodeNone}, {"minimal-episodes", EpisodeMinimal}, {"full-episodes", EpisodeFull}} {
		b.Run(mode.name, func(b *testing.B) {
			o := DefaultOptions()
			o.VerdictRows = 1_000_000
			o.SingleVerdictsFile = true
			o.Episodes = mode.mode
			root := b.TempDir()
			i := 0
			for b.Loop() {
				dir := fmt.Sprintf("%s/%d", root, i)
				i++
				st, err := Generate(b.Context(), dir, o)
				if err != nil {
					b.Fatal(err)
				}
				if st.VerdictRows != 1_000_008 {
					b.Fatalf("%d rows", st.VerdictRows)
				}
				b.StopTimer()
				if err := os.RemoveAll(dir); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1_000_008, "ns/row")
		})
	}
}
