package queries

import (
	"context"
	"database/sql"
	"fmt"
)

// JudgeCondition names one judge under one evidence condition.
type JudgeCondition struct {
	Judge, Condition string
}

// String returns JUDGE@CONDITION.
func (jc JudgeCondition) String() string { return jc.Judge + "@" + jc.Condition }

// MetricPair counts the episodes of one task and ground truth on which A's
// and B's majority verdicts are AMajority and BMajority.
type MetricPair struct {
	TaskID               string
	GTPass               bool
	AMajority, BMajority string
	N                    int
}

// MetricsPairs returns the paired majority verdicts of a and b on the
// episodes of source that both judged and that have a task and ground truth
// (sql/metrics_pairs.sql) against reference gt (GTVerifier, ...);
// score-only runs count as success when their score is >= threshold, and a
// pair with unscored runs is left out.
func (s *Session) MetricsPairs(ctx context.Context, a, b JudgeCondition, source string, threshold *float64, gt string) ([]MetricPair, error) {
	if err := s.defineMetricEpisodes(ctx, threshold, gt); err != nil {
		return nil, err
	}
	return collect(ctx, s, fmt.Sprintf("query pairs %s vs %s", a, b), "pair",
		func(p *MetricPair) []any { return []any{&p.TaskID, &p.GTPass, &p.AMajority, &p.BMajority, &p.N} },
		sqlFile("metrics_pairs"), a.Judge, a.Condition, b.Judge, b.Condition, source, nullable(threshold), gtOrDefault(gt))
}

// MetricScore is one episode's reward-model score: the mean of its runs'
// scores.
type MetricScore struct {
	EpisodeID, TaskID string
	GTPass            bool
	Score             float64
	Scored, Runs      int
}

// MetricsScores returns one score per episode of judge jc with source and
// ground truth (sql/metrics_scores.sql), ordered by episode.
func (s *Session) MetricsScores(ctx context.Context, jc JudgeCondition, source string) ([]MetricScore, error) {
	return collect(ctx, s, fmt.Sprintf("query scores %s", jc), "score",
		func(m *MetricScore) []any {
			return []any{&m.EpisodeID, &m.TaskID, &m.GTPass, &m.Score, &m.Scored, &m.Runs}
		},
		sqlFile("metrics_scores"), jc.Judge, jc.Condition, source)
}

// GroundTruthSummary is what the lake records about the verifiers behind
// some episodes' ground truth.
type GroundTruthSummary struct {
	Rows, Verifiers, Episodes                int
	Deterministic, Nondeterministic, Unknown int // rows by their deterministic flag
	Tested                                   int // verifiers with a passing recorded self-test
	SelfTests                                int // rows of the selftests table
}

// MetricsGroundTruthSummary summarises the ground-truth rows of the episodes
// of source judged by jc (sql/metrics_ground_truth_summary.sql).
func (s *Session) MetricsGroundTruthSummary(ctx context.Context, jc JudgeCondition, source string) (GroundTruthSummary, error) {
	out, err := collect(ctx, s, "query ground-truth summary", "ground-truth summary", func(g *GroundTruthSummary) []any {
		return []any{&g.Rows, &g.Verifiers, &g.Deterministic, &g.Nondeterministic, &g.Unknown, &g.Episodes, &g.Tested, &g.SelfTests}
	}, sqlFile("metrics_ground_truth_summary"), jc.Judge, jc.Condition, source)
	if err != nil || len(out) == 0 {
		return GroundTruthSummary{}, err
	}
	return out[0], nil
}

// LakeCounts are the row counts of the tables the metrics read.
type LakeCounts struct {
	Verdicts, Episodes, GroundTruth int
}

// MetricsLakeCounts counts verdicts, episodes and ground-truth rows: from
// the manifest of the session's snapshot (no statement), or
// sql/metrics_lake_counts.sql in a session without a lake.
func (s *Session) MetricsLakeCounts(ctx context.Context) (LakeCounts, error) {
	if s.counts != nil {
		return *s.counts, nil
	}
	var c LakeCounts
	row := s.conn.QueryRowContext(ctx, sqlFile("metrics_lake_counts"))
	if err := row.Scan(&c.Verdicts, &c.Episodes, &c.GroundTruth); err != nil {
		return LakeCounts{}, fmt.Errorf("count lake rows: %w", err)
	}
	return c, nil
}

// JudgeConditionCount is a judge × condition with its judged episodes and
// those with a score-only run left unscored (no threshold).
type JudgeConditionCount struct {
	JudgeCondition
	Episodes, Unscored int
}

// MetricsJudgeConditions lists the judge × condition pairs that have
// verdicts, counting episodes left unscored without a threshold
// (sql/metrics_judge_conditions.sql).
func (s *Session) MetricsJudgeConditions(ctx context.Context, threshold *float64) ([]JudgeConditionCount, error) {
	return collect(ctx, s, "query judge conditions", "judge condition",
		func(c *JudgeConditionCount) []any { return []any{&c.Judge, &c.Condition, &c.Episodes, &c.Unscored} },
		sqlFile("metrics_judge_conditions"), nullable(threshold))
}

// MetricsPairsJudges returns, for every judge, the rows of MetricsPairs
// with A the judge under condition a and B the same judge under condition
// b, in one statement (sql/metrics_pairs_judges.sql) instead of one per
// judge. A judge without such pairs has none.
func (s *Session) MetricsPairsJudges(ctx context.Context, a, b, source string, threshold *float64, gt string) (map[string][]MetricPair, error) {
	if err := s.defineMetricEpisodes(ctx, threshold, gt); err != nil {
		return nil, err
	}
	out := map[string][]MetricPair{}
	err := s.eachRow(ctx, fmt.Sprintf("query pairs %s vs %s", a, b), func(rows *sql.Rows) error {
		var judge string
		var p MetricPair
		if err := rows.Scan(&judge, &p.TaskID, &p.GTPass, &p.AMajority, &p.BMajority, &p.N); err != nil {
			return fmt.Errorf("scan pair: %w", err)
		}
		out[judge] = append(out[judge], p)
		return nil
	}, sqlFile("metrics_pairs_judges"), a, b, source, nullable(threshold), gtOrDefault(gt))
	if err != nil {
		return nil, err
	}
	return out, nil
}
