-- name: MetricsScoresCounted
-- The rows of sql/metrics_scores.sql for every judge × condition at once,
-- read from the run counts instead of the verdicts: each row of run_counts
-- keeps the scores of its episode's score-only runs (score_1..3) with
-- their run numbers (run_1..3). The mean is summed in run order as
-- avg(score ORDER BY run) sums it: 0.0 first, then the scores with the
-- largest run last (the first two commute), so the bits are the same.
-- Exact only when every episode has one row (the caller checks:
-- runcounts.PerEpisode) and no run has both a verdict and a score
-- (n_scored_verdicts 0; NULL in rows written before it was kept): a judge
-- × condition with any other row gives one row with a NULL episode_id
-- instead, and its scores must come from sql/metrics_scores.sql.
-- Parameter: source.
WITH jcs AS (
    SELECT judge, condition,
        min(CASE WHEN n_scored_verdicts = 0 THEN 1 ELSE 0 END) = 1 AS counted
    FROM run_counts
    GROUP BY judge, condition
)
SELECT r.judge, r.condition, r.episode_id, e.task_id, c.gt_pass,
    CASE WHEN r.score_3 IS NULL THEN coalesce(0.0 + r.score_1 + r.score_2, 0.0 + r.score_1) / CASE WHEN r.score_2 IS NULL THEN 1 ELSE 2 END
         WHEN r.run_3 > r.run_1 AND r.run_3 > r.run_2 THEN (0.0 + r.score_1 + r.score_2 + r.score_3) / 3
         WHEN r.run_2 > r.run_1 THEN (0.0 + r.score_1 + r.score_3 + r.score_2) / 3
         ELSE (0.0 + r.score_2 + r.score_3 + r.score_1) / 3
    END AS score,
    CAST(CASE WHEN r.score_3 IS NOT NULL THEN 3 WHEN r.score_2 IS NOT NULL THEN 2 ELSE 1 END AS BIGINT) AS n_scored,
    CAST(r.n_runs AS BIGINT) AS n_runs
FROM run_counts r
JOIN jcs j ON j.judge = r.judge AND j.condition = r.condition
JOIN episodes e ON e.episode_id = r.episode_id
JOIN categories c ON c.episode_id = r.episode_id
WHERE j.counted AND r.score_1 IS NOT NULL AND e.source = $1 AND c.gt_pass IS NOT NULL
UNION ALL
SELECT judge, condition, NULL, NULL, NULL, NULL, NULL, NULL
FROM jcs
WHERE NOT counted
ORDER BY judge, condition, episode_id
