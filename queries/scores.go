package queries

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// MetricsScoresCounted returns the rows of MetricsScores for every judge ×
// condition with score-only runs, read from the run counts in one statement
// (sql/metrics_scores_counted.sql) instead of the verdicts once per judge ×
// condition. ok is false when the run counts cannot give them (a lake
// whose run_counts table does not hold one row per episode); the judge ×
// conditions in redo have runs the counts do not keep (a verdict with a
// score, rows written before the run numbers were kept): their scores come
// from MetricsScores.
func (s *Session) MetricsScoresCounted(ctx context.Context, source string) (scores map[JudgeCondition][]MetricScore, redo map[JudgeCondition]bool, ok bool, err error) {
	if !s.runCountsPerEpisode {
		return nil, nil, false, nil
	}
	scores, redo = map[JudgeCondition][]MetricScore{}, map[JudgeCondition]bool{}
	in := interner{}
	err = s.queryArrow(ctx, sqlFile("metrics_scores_counted"), []any{source}, func(rec arrow.RecordBatch) error {
		c := columns{rec: rec}
		judge, condition := column[*array.String](&c, 0), column[*array.String](&c, 1)
		episode, task := column[*array.String](&c, 2), column[*array.String](&c, 3)
		gt, score := column[*array.Boolean](&c, 4), column[*array.Float64](&c, 5)
		scored, runs := column[*array.Int64](&c, 6), column[*array.Int64](&c, 7)
		if c.err != nil {
			return c.err
		}
		ids := idsOf(episode)
		for i := range int(rec.NumRows()) {
			jc := JudgeCondition{Judge: in.get(judge, i), Condition: in.get(condition, i)}
			if episode.IsNull(i) {
				redo[jc] = true
				continue
			}
			if task.IsNull(i) {
				return fmt.Errorf("episode %s has no task", episode.Value(i))
			}
			scores[jc] = append(scores[jc], MetricScore{EpisodeID: ids(i), TaskID: in.get(task, i), GTPass: gt.Value(i),
				Score: score.Value(i), Scored: int(scored.Value(i)), Runs: int(runs.Value(i))})
		}
		return nil
	})
	if err != nil {
		return nil, nil, false, fmt.Errorf("query counted scores: %w", err)
	}
	return scores, redo, true, nil
}
