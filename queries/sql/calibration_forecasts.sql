-- name: CalibrationForecasts
-- One forecast per (judge, condition, episode) of one source with a task
-- and the verifier's ground truth: the judge's probability of success,
-- averaged over its runs: a reward model's score, else the stated
-- confidence of a success verdict and one minus that of a failure verdict
-- (uncertain and parse_error runs, and runs without a confidence, give
-- none; an episode without any is left out). scored says whether any run
-- was score-only. The runs are averaged per episode before the join with
-- the episodes and their ground truth (one row each per episode id).
-- Rows come in no order: episode_rank numbers the episodes in episode_id
-- order and task_rank their tasks in task_id order (from 0), so that the
-- reader orders and groups the rows by integers instead of sorting them
-- here by strings. Parameter: source.
WITH eps AS (
    SELECT e.episode_id, e.task_id, c.gt_pass,
        row_number() OVER (ORDER BY e.episode_id) - 1 AS episode_rank,
        dense_rank() OVER (ORDER BY e.task_id) - 1    AS task_rank
    FROM episodes e
    JOIN categories c ON c.episode_id = e.episode_id
    WHERE e.source = $1 AND c.gt_pass IS NOT NULL AND e.task_id IS NOT NULL
),
per_episode AS (
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
SELECT p.judge, p.condition, e.episode_rank, e.task_rank, e.task_id, e.gt_pass, p.prob, p.scored, p.min_score, p.max_score
FROM per_episode p
JOIN eps e ON e.episode_id = p.episode_id
WHERE p.prob IS NOT NULL
