package metrics

import (
	"context"

	"github.com/trustlake/trustlake/queries"
)

// Engine runs the sufficient-statistics SQL of Run and Compare and returns
// the small per-task results; the statistics are computed here, in Go, on
// those. A DuckDB *queries.Session is the embedded engine; a Spark Connect
// session (package queries/spark) runs the same statements on a cluster.
// The slices an engine returns are the caller's (Run filters and sorts the
// cells in place).
type Engine interface {
	MetricsLakeCounts(ctx context.Context) (queries.LakeCounts, error)
	MetricsCells(ctx context.Context, opts queries.MetricCellOptions) ([]queries.MetricCell, error)
	MetricsPairs(ctx context.Context, a, b queries.JudgeCondition, source string, threshold *float64, gt string) ([]queries.MetricPair, error)
	MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]queries.JudgeConditionCount, error)
	HumanAgreement(ctx context.Context) ([]queries.HumanCount, int, error)
}

// ScoreEngine is an Engine that also reads the episode scores of a
// score-only judge (Threshold).
type ScoreEngine interface {
	Engine
	MetricsScores(ctx context.Context, jc queries.JudgeCondition, source string) ([]queries.MetricScore, error)
}

var _ ScoreEngine = (*queries.Session)(nil)
