-- name: ReportScores
-- The verdict runs behind metrics_scores.sql for several judge × conditions
-- at once (the report's reward models): every run of the judges $1 under
-- the conditions $2 (lists of strings), with its episode, run and score. The
-- caller (Session.ReportScores) keeps the judge × conditions asked for and
-- the episodes with a task row of the source and ground truth
-- (report_episodes.sql), and averages each one's scores in run order: what
-- metrics_scores.sql's avg(score ORDER BY run) computes, without DuckDB's
-- sorted aggregate and joins, which cost more than the scan. The judge ×
-- condition and the episode come as hashes, as in report_runs.sql.
SELECT hash(judge, condition) AS jc, hash(episode_id) AS episode, run, score
FROM verdicts
WHERE list_contains(CAST($1 AS VARCHAR[]), judge) AND list_contains(CAST($2 AS VARCHAR[]), condition)
