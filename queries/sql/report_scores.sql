-- name: ReportScores
-- The rows behind metrics_scores.sql for several judge × conditions at
-- once (the report's reward models): every verdict run of the judge ×
-- conditions in the table wanted(k, judge, condition) on an episode with a
-- task row of source $1 and ground truth, with k, the episode's rank in the
-- order (episode_id, task_id, gt_pass), the run and its score. The caller
-- averages the scores of each (k, episode) in run order
-- (Session.ReportScores): what metrics_scores.sql's
-- avg(score ORDER BY run) computes, without DuckDB's sorted aggregate,
-- which cost more than the rest of the statement. {{wanted}} is the VALUES
-- list of wanted, {{judges}} and {{conditions}} the lists that prune the
-- verdicts' partitions.
WITH wanted(k, judge, condition) AS (VALUES {{wanted}}),
ep AS (
    SELECT episode_id, task_id, gt_pass,
        dense_rank() OVER (ORDER BY episode_id, task_id, gt_pass) - 1 AS rank
    FROM episodes e
    JOIN categories c USING (episode_id)
    WHERE e.source = $1 AND c.gt_pass IS NOT NULL
)
SELECT w.k, ep.rank, ep.episode_id, ep.task_id, ep.gt_pass, v.run, v.score
FROM verdicts v
JOIN wanted w ON w.judge = v.judge AND w.condition = v.condition
JOIN ep ON ep.episode_id = v.episode_id
WHERE v.judge IN ({{judges}}) AND v.condition IN ({{conditions}})
