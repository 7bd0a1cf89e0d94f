-- name: MetricsPairsJudges
-- The rows of sql/metrics_pairs.sql for every judge at once, each judge
-- under condition $1 (A) paired with itself under condition $2 (B), with
-- the judge's name first: on the episodes of source $3 that both judged
-- and that have a task and ground truth; $4 is the threshold of
-- score-only runs, $5 the reference (see metric_episodes).
SELECT
    a.judge, a.task_id, a.gt_pass,
    a.majority AS a_majority, b.majority AS b_majority,
    count(*)   AS n
FROM metric_episodes(CAST($4 AS DOUBLE), $5) a
JOIN metric_episodes(CAST($4 AS DOUBLE), $5) b ON a.episode_id = b.episode_id AND a.judge = b.judge
WHERE a.condition = $1 AND b.condition = $2
  AND a.source = $3
  AND a.task_id IS NOT NULL AND a.gt_pass IS NOT NULL
  AND a.n_unscored = 0 AND b.n_unscored = 0
GROUP BY a.judge, a.task_id, a.gt_pass, a.majority, b.majority
ORDER BY a.judge, a.task_id, a.gt_pass, a_majority, b_majority
