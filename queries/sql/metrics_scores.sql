-- name: MetricsScores
-- One score per episode of judge $1 under condition $2 with source $3 and
-- ground truth: the mean of its runs' non-null scores (parse errors carry
-- none), with the episode's task and ground truth.
WITH per_episode AS (
-- per_episode:begin
    SELECT judge, condition, episode_id,
        avg(score)   AS score,
        count(score) AS n_scored,
        count(*)     AS n_runs
    FROM verdicts
    GROUP BY judge, condition, episode_id
-- per_episode:end
)
SELECT p.episode_id, e.task_id, c.gt_pass, p.score, p.n_scored, p.n_runs
FROM per_episode p
JOIN episodes e USING (episode_id)
JOIN categories c USING (episode_id)
WHERE p.judge = $1 AND p.condition = $2 AND e.source = $3 AND c.gt_pass IS NOT NULL AND p.n_scored > 0
ORDER BY p.episode_id
