package metrics

import (
	"context"

	"github.com/trustlake/trustlake/queries"
)

// Engine runs the sufficient-statistics SQL of Run and Compare and returns
// the small per-task results; the statistics are computed here, in Go, on
// those. A DuckDB *queries.Session is the embedded engine; a Spark Connect
// session (package queries/spark) runs the same statements on a cluster.
type Engine interface {
	MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error)
	MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error)
	MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error)
	MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error)
	HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error)
}

var _ Engine = (*queries.Session)(nil)
