-- name: CalibrationForecasts
-- One forecast per (judge, condition, episode) of one source with a task
-- and the verifier's ground truth: the judge's probability of success,
-- averaged over its runs: a reward model's score, else the stated
-- confidence of a success verdict and one minus that of a failure verdict
-- (uncertain and parse_error runs, and runs without a confidence, give
-- none; an episode without any is left out). scored says whether any run
-- was score-only. The runs are averaged per episode before the join with
-- the episodes and their ground truth (one row each per episode id), so
-- the join and the sort see episodes, not runs. Rows come ordered by
-- judge, condition and episode_id (the order of the bootstrap's sums).
-- Parameter: source.
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        avg(CASE WHEN verdict IS NULL THEN score
                 WHEN verdict = 'success' THEN confidence
                 WHEN verdict = 'failure' THEN 1 - confidence END) AS prob,
        bool_or(verdict IS NULL)                                   AS scored,
        min(CASE WHEN verdict IS NULL THEN score END)              AS min_score,
        max(CASE WHEN verdict IS NULL THEN score END)              AS max_score
    FROM verdicts
    GROUP BY judge, condition, episode_id
)
SELECT p.judge, p.condition, e.task_id, c.gt_pass, p.prob, p.scored, p.min_score, p.max_score
FROM per_episode p
JOIN episodes e ON e.episode_id = p.episode_id
JOIN categories c ON c.episode_id = p.episode_id
WHERE e.source = $1 AND c.gt_pass IS NOT NULL AND e.task_id IS NOT NULL AND p.prob IS NOT NULL
ORDER BY p.judge, p.condition, p.episode_id
