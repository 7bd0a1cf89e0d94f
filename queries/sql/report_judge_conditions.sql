-- name: ReportJudgeConditions
-- The judge × conditions of verdict_runs with hash(judge, condition), the
-- code report_runs.sql and report_scores.sql return instead of the two
-- strings on every row (Session.ReadReportRuns). The partition columns
-- only: no data page is read.
SELECT DISTINCT judge, condition, hash(judge, condition) AS jc
FROM verdict_runs
