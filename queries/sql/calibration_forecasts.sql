-- name: CalibrationForecasts
-- One forecast per (judge, condition, episode) of one source with a task
-- and the verifier's ground truth: the judge's probability of success,
-- averaged over its runs: a reward model's score, else the stated
-- confidence of a success verdict and one minus that of a failure verdict
-- (uncertain and parse_error runs, and runs without a confidence, give
-- none). scored says whether any run was score-only. Parameter: source.
SELECT v.judge, v.condition, v.episode_id, e.task_id, c.gt_pass,
    avg(CASE WHEN v.verdict IS NULL THEN v.score
             WHEN v.verdict = 'success' THEN v.confidence
             WHEN v.verdict = 'failure' THEN 1 - v.confidence END) AS prob,
    bool_or(v.verdict IS NULL)                                     AS scored,
    min(CASE WHEN v.verdict IS NULL THEN v.score END)              AS min_score,
    max(CASE WHEN v.verdict IS NULL THEN v.score END)              AS max_score
FROM verdicts v
JOIN episodes e ON e.episode_id = v.episode_id
JOIN categories c ON c.episode_id = v.episode_id
WHERE e.source = ? AND c.gt_pass IS NOT NULL AND e.task_id IS NOT NULL
GROUP BY v.judge, v.condition, v.episode_id, e.task_id, c.gt_pass
ORDER BY v.judge, v.condition, v.episode_id
