-- name: MetricsPairs
-- Spark dialect of queries/sql/metrics_pairs.sql: A = ($1, $2), B = ($3,
-- $4), source $5; the threshold and reference are in the metric_episodes
-- view.
SELECT
    a.task_id, a.gt_pass,
    a.majority AS a_majority, b.majority AS b_majority,
    count(*)   AS n
FROM metric_episodes a
JOIN metric_episodes b ON a.episode_id = b.episode_id
WHERE a.judge = $1 AND a.condition = $2
  AND b.judge = $3 AND b.condition = $4
  AND a.source = $5
  AND a.task_id IS NOT NULL AND a.gt_pass IS NOT NULL
  AND a.n_unscored = 0 AND b.n_unscored = 0
GROUP BY a.task_id, a.gt_pass, a.majority, b.majority
ORDER BY a.task_id, a.gt_pass, a_majority, b_majority
