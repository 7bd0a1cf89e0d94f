-- name: MetricsJudgeConditions
-- Spark dialect of queries/sql/metrics_judge_conditions.sql.
SELECT judge, condition, count(*) AS n_episodes, count_if(n_unscored > 0) AS n_unscored
FROM metric_episodes
GROUP BY judge, condition
ORDER BY judge, condition
