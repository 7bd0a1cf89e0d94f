package queries

import (
	"context"
	"database/sql"
	"fmt"
)

// MetricCell is one row of MetricsCells: the per-task sufficient statistics
// of the judge metrics for one (judge, condition, task, source, ground
// truth, agent, category) cell. Counts are episodes unless they say runs.
type MetricCell struct {
	Judge, Condition string
	TaskID           string // "" when the lake has no episode row (then Source is "" too)
	HasTask          bool
	Source           string
	HasGT            bool // false: the episode has no ground truth
	GTPass           bool
	Agent            string // "" unless MetricCellOptions.ByAgent
	Category         string // effective category; "" unless ByCategory or when none

	Episodes                                      int // episodes in the cell
	MajSuccess, MajFailure, MajUncertain          int // majority verdicts
	Unscored                                      int // episodes with a score-only run and no threshold
	Runs, ParseErrors                             int // runs, and parse_error runs
	Eligible, Agree                               int // episodes with >= 2 valid runs; of those, unanimous
	FleissP                                       float64
	FleissSuccess, FleissFailure, FleissUncertain int // valid runs of eligible episodes per verdict
}

// MetricCellOptions choose the optional key columns of MetricsCells and
// the threshold of score-only runs.
type MetricCellOptions struct {
	ByAgent    bool
	ByCategory bool
	// Threshold: a score-only run (reward model) is success when its score
	// is >= *Threshold; nil leaves it unscored (MetricCell.Unscored).
	Threshold *float64
	// GT is the reference: GTVerifier, GTHuman or GTAny; "" means
	// GTVerifier.
	GT string
}

// References of the metrics (metric_episodes' gt).
const (
	GTVerifier = "verifier" // the verifier's verdict
	GTHuman    = "human"    // the majority of the human judgments (none on a tie)
	GTAny      = "any"      // the verifier's verdict, else the human majority
)

func gtOrDefault(gt string) string {
	if gt == "" {
		return GTVerifier
	}
	return gt
}

// defineMetricEpisodes (re)defines the session's table macro
// metric_episodes(thr, gt) (sql/metrics_episodes.sql) for a query at
// threshold: one row per (judge, condition, episode) with the majority
// verdict, read from metric_runs when it holds that threshold's counts.
// Every query that uses it inlines it.
func (s *Session) defineMetricEpisodes(ctx context.Context, threshold *float64) error {
	if err := s.Exec(ctx, s.runsStatement("metrics_episodes", threshold, false)); err != nil {
		return fmt.Errorf("define metric_episodes: %w", err)
	}
	return nil
}

// nullable turns a *float64 into a query argument (nil is NULL).
func nullable(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// MetricsCells returns the per-task cells of the judge metrics, ordered by
// their key: sql/metrics_cells.sql, one statement in plain SQL (DuckDB and
// Spark) that reads the verdicts once (or metric_runs: MaterializeRuns).
func (s *Session) MetricsCells(ctx context.Context, opts MetricCellOptions) ([]MetricCell, error) {
	rows, err := s.Query(ctx, s.runsStatement("metrics_cells", opts.Threshold, false), opts.ByAgent, opts.ByCategory, nullable(opts.Threshold), gtOrDefault(opts.GT))
	if err != nil {
		return nil, fmt.Errorf("query metric cells: %w", err)
	}
	defer rows.Close()
	var out []MetricCell
	for rows.Next() {
		var (
			c            MetricCell
			task, source sql.NullString
			gt           sql.NullBool
		)
		if err := rows.Scan(&c.Judge, &c.Condition, &task, &source, &gt, &c.Agent, &c.Category,
			&c.Episodes, &c.MajSuccess, &c.MajFailure, &c.MajUncertain, &c.Unscored,
			&c.Runs, &c.ParseErrors, &c.Eligible, &c.Agree, &c.FleissP,
			&c.FleissSuccess, &c.FleissFailure, &c.FleissUncertain); err != nil {
			return nil, fmt.Errorf("scan metric cell: %w", err)
		}
		c.TaskID, c.HasTask, c.Source = task.String, task.Valid, source.String
		c.HasGT, c.GTPass = gt.Valid, gt.Bool
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query metric cells: %w", err)
	}
	return out, nil
}

// MetricEpisode is one row of metric_episodes.
type MetricEpisode struct {
	Judge, Condition, EpisodeID                    string
	Runs, ParseErrors, Success, Failure, Uncertain int
	Unscored, Valid                                int
	Majority                                       string // success, failure or uncertain
	TaskID, Agent, Source                          string // "" without an episode row
	HasGT, GTPass                                  bool
	Category                                       string // "" when none
}

// MetricEpisodeRows returns all of metric_episodes(threshold) ordered by
// judge, condition and episode. It reads every row: meant for tests and
// small lakes; the metrics use MetricsCells.
func (s *Session) MetricEpisodeRows(ctx context.Context, threshold *float64) ([]MetricEpisode, error) {
	if err := s.defineMetricEpisodes(ctx, threshold); err != nil {
		return nil, err
	}
	rows, err := s.Query(ctx, `SELECT judge, condition, episode_id, n_runs, n_parse, n_success, n_failure,
		n_uncertain, n_unscored, n_valid, majority, task_id, agent, source, gt_pass, category
		FROM metric_episodes(CAST(? AS DOUBLE), 'verifier') ORDER BY judge, condition, episode_id`, nullable(threshold))
	if err != nil {
		return nil, fmt.Errorf("query metric episodes: %w", err)
	}
	defer rows.Close()
	var out []MetricEpisode
	for rows.Next() {
		var (
			e                          MetricEpisode
			task, agent, source, categ sql.NullString
			gt                         sql.NullBool
		)
		if err := rows.Scan(&e.Judge, &e.Condition, &e.EpisodeID, &e.Runs, &e.ParseErrors, &e.Success,
			&e.Failure, &e.Uncertain, &e.Unscored, &e.Valid, &e.Majority, &task, &agent, &source, &gt, &categ); err != nil {
			return nil, fmt.Errorf("scan metric episode: %w", err)
		}
		e.TaskID, e.Agent, e.Source, e.Category = task.String, agent.String, source.String, categ.String
		e.HasGT, e.GTPass = gt.Valid, gt.Bool
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query metric episodes: %w", err)
	}
	return out, nil
}
