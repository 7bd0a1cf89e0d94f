-- name: ReportRuns
-- The run counts of every (judge, condition, episode) as the view
-- verdict_runs holds them: one or more rows per episode, which the caller
-- sums (Session.ReadReportRuns) and joins with the episodes of
-- report_episodes.sql. The judge × condition comes as hash(judge,
-- condition) (report_episodes.sql names them): one number per
-- row, not two strings.
SELECT hash(judge, condition) AS jc, hash(episode_id) AS episode,
    CAST(n_runs AS INTEGER) AS n_runs, CAST(n_parse AS INTEGER) AS n_parse,
    CAST(n_success AS INTEGER) AS n_success, CAST(n_failure AS INTEGER) AS n_failure,
    CAST(n_uncertain AS INTEGER) AS n_uncertain, score_1, score_2, score_3
FROM verdict_runs
