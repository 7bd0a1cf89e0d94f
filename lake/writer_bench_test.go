package lake_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// benchVerdicts are rows shaped like `trustlake gen` verdicts: three
// judges × four conditions, three runs of each episode, a few verdicts,
// one model per judge, a score and a call time on each.
func benchVerdicts(n int) []schema.Verdict {
	judges := []string{"sim:vlm-a", "sim:vlm-b", "sim:rm-1"}
	conds := []string{"E1-final", "E2-lastk", "E3-full", "E2+claim"}
	verdicts := []string{"success", "failure", "parse_error"}
	t0 := time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)
	rows := make([]schema.Verdict, n)
	for i := range rows {
		ep, run := i/36, int64(i%3+1)
		judge, cond := judges[i/3%3], conds[i/9%4]
		conf, at, model := 0.5+float64(i%5)/10, t0.Add(time.Duration(i)*time.Second), judge+"@1"
		rows[i] = schema.Verdict{
			EpisodeID: fmt.Sprintf("sim-20261010-t%04d-a1-e%03d", ep/200, ep%200), Judge: judge, Condition: cond,
			Run: run, Verdict: &verdicts[i%3], Confidence: &conf, Model: &model, CalledAt: &at, Extra: "{}",
			Provenance: schema.Provenance{SrcFile: "/tmp/verdicts.jsonl", SrcLine: int64(i + 1)},
		}
	}
	return rows
}

// BenchmarkWriter adds verdict rows of twelve partitions to an empty lake
// and commits them: dedupe, Parquet encoding, key index and run counts.
func BenchmarkWriter(b *testing.B) {
	rows := benchVerdicts(240_000)
	for b.Loop() {
		l, err := lake.Open(b.TempDir(), runcounts.With(lake.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		tx, err := l.Begin(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		w, err := lake.NewWriter[schema.Verdict](tx, lake.Verdicts, lake.WriterOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range rows {
			if _, err := w.Add(&rows[i]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Close(); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
}
