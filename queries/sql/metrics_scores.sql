-- name: MetricsScores
-- One score per episode of judge $1 under condition $2 with source $3 and
-- ground truth: the mean of its runs' non-null scores (parse errors carry
-- none), summed in run order so that the same lake always gives the same
-- bits whatever order the scan meets the runs in, with the episode's task
-- and ground truth.
SELECT
    v.episode_id, e.task_id, c.gt_pass,
    avg(v.score ORDER BY v.run) AS score,
    count(v.score) AS n_scored,
    count(*)       AS n_runs
FROM verdicts v
JOIN episodes e USING (episode_id)
JOIN categories c USING (episode_id)
WHERE v.judge = $1 AND v.condition = $2 AND e.source = $3 AND c.gt_pass IS NOT NULL
GROUP BY ALL
HAVING count(v.score) > 0
ORDER BY v.episode_id
