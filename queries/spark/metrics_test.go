package spark_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/queries"
)

// TestSparkMetricsParity: the sufficient statistics computed by Spark
// (queries/spark/sql) equal DuckDB's (queries/sql) cell by cell, and so do
// the reports computed from them in Go: same counts, same intervals, same
// seed. This is also the test that the two dialects of each statement
// agree.
func TestSparkMetricsParity(t *testing.T) {
	src := sharedLake(t)
	duck, sp := openBoth(t, src)
	ctx := t.Context()
	half, tenth := 0.5, 0.1
	t.Run("cells", func(t *testing.T) {
		for _, o := range []queries.MetricCellOptions{{}, {ByAgent: true, ByCategory: true, Threshold: &tenth}, {Threshold: &half, GT: queries.GTHuman}, {ByCategory: true, GT: queries.GTAny}} {
			want, got := onBoth(t, duck, sp, func(e metrics.Engine) ([]queries.MetricCell, error) { return e.MetricsCells(ctx, o) })
			if len(want) < 20 {
				t.Fatalf("fixture: only %d cells", len(want))
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("options %+v: cells differ (-duckdb +spark):\n%s", o, d)
			}
		}
	})
	t.Run("counts", func(t *testing.T) {
		want, got := onBoth(t, duck, sp, func(e metrics.Engine) (queries.LakeCounts, error) { return e.MetricsLakeCounts(ctx) })
		if want != got || want.Verdicts == 0 {
			t.Errorf("lake counts: duckdb %+v, spark %+v", want, got)
		}
		wj, gj := onBoth(t, duck, sp, func(e metrics.Engine) ([]queries.JudgeConditionCount, error) {
			return e.MetricsJudgeConditions(ctx, nil)
		})
		if d := cmp.Diff(wj, gj); d != "" {
			t.Errorf("judge conditions differ (-duckdb +spark):\n%s", d)
		}
		wh, wa, err := duck.HumanAgreement(ctx)
		if err != nil {
			t.Fatal(err)
		}
		gh, ga, err := sp.HumanAgreement(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wh, gh); d != "" || wa != ga || wa != 3 {
			t.Errorf("human agreement: annotators duckdb %d spark %d; counts differ (-duckdb +spark):\n%s", wa, ga, d)
		}
	})
	t.Run("report", func(t *testing.T) {
		opts := metrics.Options{By: []string{metrics.ByHardness, metrics.ByAgent, metrics.BySource}, Threshold: &half, Resamples: 300, Seed: 7}
		want, got := onBoth(t, duck, sp, func(e metrics.Engine) (metrics.Report, error) { return metrics.Run(ctx, e, opts) })
		sameJSON(t, want, got)
	})
	t.Run("compare", func(t *testing.T) {
		a := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2+claim"}
		b := queries.JudgeCondition{Judge: "sim:vlm-a", Condition: "E2-lastk"}
		for _, o := range []metrics.CompareOptions{
			{A: a, B: b, Resamples: 300},
			{A: a, B: queries.JudgeCondition{Judge: "sim:rm-1", Condition: "E2-lastk"}, Threshold: &half, UncertainPolicy: metrics.UncertainExclude, Resamples: 300},
			{A: a, B: b, GT: queries.GTAny, Resamples: 300},
		} {
			want, got := onBoth(t, duck, sp, func(e metrics.Engine) (metrics.Comparison, error) { return metrics.Compare(ctx, e, o) })
			if want.Negatives.NPairs == 0 {
				t.Fatal("fixture: no paired negatives")
			}
			sameJSON(t, want, got)
		}
	})
}

// onBoth asks f of the DuckDB session and of Spark and returns both
// answers, failing t on an error of either.
func onBoth[T any](t *testing.T, duck, sp metrics.Engine, f func(metrics.Engine) (T, error)) (want, got T) {
	t.Helper()
	want, err := f(duck)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = f(sp); err != nil {
		t.Fatal(err)
	}
	return want, got
}

func sameJSON(t *testing.T, want, got any) {
	t.Helper()
	wb, err := json.MarshalIndent(want, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	gb, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(wb), string(gb)); d != "" {
		t.Errorf("reports differ (-duckdb +spark):\n%s", d)
	}
}
