-- name: MetricsJudgeConditions
-- Every (judge, condition) of metric_episodes with its episodes and the
-- episodes that have a score-only run but no threshold (unscored).
SELECT judge, condition, count(*) AS n_episodes, count_if(n_unscored > 0) AS n_unscored
FROM metric_episodes
GROUP BY ALL
ORDER BY ALL
