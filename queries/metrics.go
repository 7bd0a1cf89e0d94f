package queries

import (
	"cmp"
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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

func gtOrDefault(gt string) string { return cmp.Or(gt, GTVerifier) }

// defineMetricEpisodes (re)defines the session's table macro
// metric_episodes(thr, gt) (sql/metrics_episodes.sql): one row per
// (judge, condition, episode) with the majority verdict. Every query that
// uses it inlines it. A query for the threshold and reference of the rows
// KeepMetricEpisodes kept reads those instead (sql/metrics_episodes_kept.sql).
func (s *Session) defineMetricEpisodes(ctx context.Context, threshold *float64, gt string) error {
	name := "metrics_episodes"
	if s.kept != nil && s.kept.is(threshold, gtOrDefault(gt)) {
		name = "metrics_episodes_kept"
	}
	if err := s.Exec(ctx, sqlFile(name)); err != nil {
		return fmt.Errorf("define metric_episodes: %w", err)
	}
	return nil
}

// KeepMetricEpisodes keeps the rows of metric_episodes(threshold, gt) in a
// temporary table (sql/metrics_episodes_keep.sql) that the session's
// statements then read for this threshold and reference: for a caller
// that runs several of them (the report), the runs are counted per
// episode and joined with the episodes once.
func (s *Session) KeepMetricEpisodes(ctx context.Context, threshold *float64, gt string) error {
	s.kept = nil
	if err := s.defineMetricEpisodes(ctx, threshold, gt); err != nil {
		return err
	}
	if err := s.Exec(ctx, sqlFile("metrics_episodes_keep"), nullable(threshold), gtOrDefault(gt)); err != nil {
		return fmt.Errorf("keep metric_episodes: %w", err)
	}
	s.kept = &keptEpisodes{threshold: nullable(threshold), gt: gtOrDefault(gt)}
	return nil
}

// keptEpisodes is what the rows KeepMetricEpisodes kept were computed for.
type keptEpisodes struct {
	threshold any // nullable(threshold)
	gt        string
}

func (k *keptEpisodes) is(threshold *float64, gt string) bool {
	return k.threshold == nullable(threshold) && k.gt == gt
}

// nullable turns a pointer into a query argument (nil is NULL).
func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// MetricsCells returns the per-task cells of the judge metrics, ordered by
// their key (FoldCellGroups): sql/metrics_cells.sql, one statement in plain
// SQL (DuckDB and Spark) that reads the run counts once, read here as
// Arrow columns.
func (s *Session) MetricsCells(ctx context.Context, opts MetricCellOptions) ([]MetricCell, error) {
	var f cellFolder
	in := interner{}
	err := s.queryArrow(ctx, sqlFile("metrics_cells"),
		[]any{opts.ByAgent, opts.ByCategory, nullable(opts.Threshold), gtOrDefault(opts.GT)},
		func(rec arrow.RecordBatch) error { return foldCellBatch(&f, rec, in) })
	if err != nil {
		return nil, fmt.Errorf("query metric cells: %w", err)
	}
	return f.result(), nil
}

// foldCellBatch folds the rows of a record batch of sql/metrics_cells.sql
// into f. A row's key strings are copied out of the batch (interned) only
// for a cell not seen before.
func foldCellBatch(f *cellFolder, rec arrow.RecordBatch, in interner) error {
	var (
		c    = columns{rec: rec}
		strs [6]*array.String // judge, condition, task_id, source, agent, category
		ints [13]*array.Int64 // cell, then n_valid … n_uncertain
	)
	for k, i := range [6]int{0, 1, 3, 4, 6, 7} {
		strs[k] = column[*array.String](&c, i)
	}
	gt := column[*array.Boolean](&c, 5)
	for k, i := range [13]int{2, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19} {
		ints[k] = column[*array.Int64](&c, i)
	}
	if c.err != nil {
		return c.err
	}
	for r := range int(rec.NumRows()) {
		v := func(k int) int { return int(ints[k].Value(r)) }
		g := CellGroup{NValid: v(1), Episodes: v(2), MajSuccess: v(3), MajFailure: v(4), Unscored: v(5), Runs: v(6),
			ParseErrors: v(7), Agree: v(8), PairsAgree: v(9), Success: v(10), Failure: v(11), Uncertain: v(12)}
		cell := f.lookup(strs[0].Value(r), strs[1].Value(r), ints[0].Value(r))
		if cell == nil {
			if f.lastIs(strs[0].Value(r), strs[1].Value(r)) {
				g.Judge, g.Condition = f.names[f.last].Judge, f.names[f.last].Condition
			} else {
				g.Judge, g.Condition = in.get(strs[0], r), in.get(strs[1], r)
			}
			g.Cell = ints[0].Value(r)
			g.HasTask, g.HasSource, g.HasGT = strs[2].IsValid(r), strs[3].IsValid(r), gt.IsValid(r)
			g.Agent, g.Category = in.get(strs[4], r), in.get(strs[5], r)
			if g.HasTask {
				g.TaskID = in.get(strs[2], r)
			}
			if g.HasSource {
				g.Source = in.get(strs[3], r)
			}
			g.GTPass = g.HasGT && gt.Value(r)
			cell = f.newCell(&g)
		}
		cell.add(&g)
	}
	return nil
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
	if err := s.defineMetricEpisodes(ctx, threshold, GTVerifier); err != nil {
		return nil, err
	}
	return collect(ctx, s, "query metric episodes", "metric episode", func(e *MetricEpisode) []any {
		return []any{&e.Judge, &e.Condition, &e.EpisodeID, &e.Runs, &e.ParseErrors, &e.Success, &e.Failure, &e.Uncertain,
			&e.Unscored, &e.Valid, &e.Majority, nullTo(&e.TaskID, nil), nullTo(&e.Agent, nil), nullTo(&e.Source, nil),
			nullTo(&e.GTPass, &e.HasGT), nullTo(&e.Category, nil)}
	}, `SELECT judge, condition, episode_id, n_runs, n_parse, n_success, n_failure,
		n_uncertain, n_unscored, n_valid, majority, task_id, agent, source, gt_pass, category
		FROM metric_episodes(CAST(? AS DOUBLE), 'verifier') ORDER BY judge, condition, episode_id`, nullable(threshold))
}
