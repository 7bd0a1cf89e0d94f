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
			want, err := duck.MetricsCells(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := sp.MetricsCells(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) < 20 {
				t.Fatalf("fixture: only %d cells", len(want))
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("options %+v: cells differ (-duckdb +spark):\n%s", o, d)
			}
		}
	})
	t.Run("counts", func(t *testing.T) {
		want, err := duck.MetricsLakeCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sp.MetricsLakeCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want != got || want.Verdicts == 0 {
			t.Errorf("lake counts: duckdb %+v, spark %+v", want, got)
		}
		wj, err := duck.MetricsJudgeConditions(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		gj, err := sp.MetricsJudgeConditions(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
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
		want, err := metrics.Run(ctx, duck, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := metrics.Run(ctx, sp, opts)
		if err != nil {
			t.Fatal(err)
		}
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
			want, err := metrics.Compare(ctx, duck, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := metrics.Compare(ctx, sp, o)
			if err != nil {
				t.Fatal(err)
			}
			if want.Negatives.NPairs == 0 {
				t.Fatal("fixture: no paired negatives")
			}
			sameJSON(t, want, got)
		}
	})
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
