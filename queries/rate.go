package queries

import (
	"context"
	"database/sql"
	"fmt"

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
	source, policy := opts.Source, opts.UncertainPolicy
	if source == "" {
		source = "natural"
	}
	if policy == "" {
		policy = "failure"
	}
	var out []RateCell
	err := s.eachRow(ctx, "query rate cells", func(rows *sql.Rows) error {
		var c RateCell
		var agent sql.NullString
		var nl, nu int64
		m := &c.Sums
		if err := rows.Scan(&c.Judge, &c.Condition, &agent, &c.TaskID, &nl, &m.Y, &m.YY, &m.F, &m.FF, &m.YF, &nu, &m.FU, &m.FFU, &c.LeftOut); err != nil {
			return fmt.Errorf("scan rate cell: %w", err)
		}
		c.Agent, m.N, m.NU = agent.String, float64(nl), float64(nu)
		out = append(out, c)
		return nil
	}, sqlFile("rate_cells"), nullable(opts.Threshold), gtOrDefault(opts.GT), source, policy, opts.Score)
	if err != nil {
		return nil, err
	}
	return out, nil
}
