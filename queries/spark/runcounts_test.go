package spark_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/internal/lakecopy"
	"github.com/trustlake/trustlake/internal/sparktest"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
	"github.com/trustlake/trustlake/queries/spark"
)

// TestSparkWithoutRunCounts: on a lake whose manifest lists no run_counts
// files (written before the table), Spark counts the verdicts themselves
// (view_verdict_runs_scan.sql) and gives the cells and comparisons DuckDB
// gives from the run counts of the same lake.
func TestSparkWithoutRunCounts(t *testing.T) {
	src := sharedLake(t)
	old := lakecopy.WithoutRunCounts(t, src.Root())

	ctx := t.Context()
	duck, err := queries.Open(ctx, src, queries.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	sp, err := spark.Open(ctx, sparktest.Remote(t), spark.Options{LakeURI: "file://" + old})
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	half := 0.5
	for _, o := range []queries.MetricCellOptions{{ByCategory: true, Threshold: &half}, {ByAgent: true}} {
		want, got := onBoth(t, duck, sp, func(e metrics.Engine) ([]queries.MetricCell, error) { return e.MetricsCells(ctx, o) })
		if d := cmp.Diff(want, got); d != "" || len(want) < 20 {
			t.Errorf("options %+v: %d cells; differ (-duckdb with run counts +spark without):\n%s", o, len(want), d)
		}
	}
	o := metrics.CompareOptions{A: queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2+claim"},
		B: queries.JudgeCondition{Judge: "sim:rm-1", Condition: "E2-lastk"}, Threshold: &half, Resamples: 200}
	want, got := onBoth(t, duck, sp, func(e metrics.Engine) (metrics.Comparison, error) { return metrics.Compare(ctx, e, o) })
	sameJSON(t, want, got)
}
