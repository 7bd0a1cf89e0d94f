-- name: ReportRuns
-- The run counts of every (judge, condition, episode) as the table
-- run_counts holds them (when they count every verdicts file of the
-- snapshot; else report_runs_scan.sql): one or more rows per episode,
-- which the caller sums (Session.ReadReportRuns) and joins with the
-- episodes of report_episodes.sql, with the run numbers of the scores
-- (run_1..run_3) and the runs with a verdict and a score
-- (n_scored_verdicts; NULL in rows written before the run numbers were
-- kept), so that the reward models' scores are averaged in run order
-- without reading the verdicts again. The judge × condition comes as
-- hash(judge, condition) (report_episodes.sql names them): one number per
-- row, not two strings.
SELECT hash(judge, condition) AS jc, hash(episode_id) AS episode,
    CAST(n_runs AS INTEGER) AS n_runs, CAST(n_parse AS INTEGER) AS n_parse,
    CAST(n_success AS INTEGER) AS n_success, CAST(n_failure AS INTEGER) AS n_failure,
    CAST(n_uncertain AS INTEGER) AS n_uncertain, score_1, score_2, score_3,
    run_1, run_2, run_3, n_scored_verdicts
FROM run_counts
