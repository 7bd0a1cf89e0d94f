-- name: MetricsJudgeConditions
-- Every (judge, condition) of metric_episodes($1) with its episodes and
-- the episodes that have a score-only run left unscored ($1 NULL).
SELECT judge, condition, count(*) AS n_episodes, count_if(n_unscored > 0) AS n_unscored
FROM metric_episodes(CAST($1 AS DOUBLE), 'any')
GROUP BY ALL
ORDER BY ALL
