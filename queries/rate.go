package queries

import (
	"cmp"
	"context"

	"github.com/trustlake/trustlake/stats"
)

// RateCell is one row of RateCells: the sufficient statistics of the
// corrected success rate of one agent on one task under one judge and
// condition.
type RateCell struct {
	Judge, Condition, Agent, TaskID string
	Sums                            stats.PPISums
	LeftOut                         int // episodes without a prediction (uncertain excluded, unscored, no score)
}

// RateCellOptions choose how RateCells turns verdicts into predictions.
type RateCellOptions struct {
	Source string // episode source; "" means natural
	GT     string // reference: GTVerifier ("" too), GTHuman or GTAny
	// UncertainPolicy: an uncertain majority is "failure" (0, also ""),
	// "success" (1) or "exclude" (left out).
	UncertainPolicy string
	// Threshold: a score-only run is a success when its score is >=
	// *Threshold; nil leaves such runs unscored (their episodes left out).
	Threshold *float64
	// Score: the prediction is the episode's mean run score instead of its
	// majority verdict.
	Score bool
}

// RateCells returns the per-task rows of sql/rate_cells.sql for every
// judge and condition, ordered by judge, condition, agent and task.
func (s *Session) RateCells(ctx context.Context, opts RateCellOptions) ([]RateCell, error) {
	if err := s.defineMetricEpisodes(ctx, opts.Threshold, opts.GT); err != nil {
		return nil, err
	}
	source, policy := cmp.Or(opts.Source, "natural"), cmp.Or(opts.UncertainPolicy, "failure")
	return collect(ctx, s, "query rate cells", "rate cell", func(c *RateCell) []any {
		m := &c.Sums
		return []any{&c.Judge, &c.Condition, nullTo(&c.Agent, nil), &c.TaskID, &m.N, &m.Y, &m.YY, &m.F, &m.FF, &m.YF,
			&m.NU, &m.FU, &m.FFU, &c.LeftOut}
	}, sqlFile("rate_cells"), nullable(opts.Threshold), gtOrDefault(opts.GT), source, policy, opts.Score)
}
