-- name: MetricsPairs
-- Paired majority verdicts of two (judge, condition) pairs, A = ($1, $2) and
-- B = ($3, $4), on the episodes of source $5 that both judged and that have
-- a task and ground truth, counted per task, ground truth and verdict pair;
-- $6 is the threshold of score-only runs, $7 the reference (see
-- metric_episodes).
SELECT
    a.task_id, a.gt_pass,
    a.majority AS a_majority, b.majority AS b_majority,
    count(*)   AS n
FROM metric_episodes(CAST($6 AS DOUBLE), $7) a
JOIN metric_episodes(CAST($6 AS DOUBLE), $7) b USING (episode_id)
WHERE a.judge = $1 AND a.condition = $2
  AND b.judge = $3 AND b.condition = $4
  AND a.source = $5
  AND a.task_id IS NOT NULL AND a.gt_pass IS NOT NULL
  AND a.n_unscored = 0 AND b.n_unscored = 0
GROUP BY ALL
ORDER BY ALL
