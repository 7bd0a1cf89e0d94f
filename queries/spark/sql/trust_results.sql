-- name: TrustResults
-- Spark dialect of queries/sql/trust_results.sql (the same statement).
SELECT r.result_id, r.benchmark, r.task_id, r.agent, r.trial,
    r.recorded_score, r.recorded_pass, r.episode_id,
    coalesce(r.final_message, e.final_message) AS final_message,
    r.instruction, r.grader, r.infra_error, r._src_file, r._src_line
FROM results AS r
JOIN trust_scope AS s ON s.benchmark = r.benchmark
LEFT JOIN episodes AS e ON e.episode_id = r.episode_id
ORDER BY r.benchmark, r.result_id
