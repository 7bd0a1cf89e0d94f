-- name: ViewVerdictRuns
-- verdict_runs: the verdict runs counted per (judge, condition, episode),
-- read from the run_counts table: one or more rows per episode and counted
-- verdicts file, with the runs per verdict value and the scores of
-- score-only runs (score_1..3, NULL when fewer). Readers sum the rows per
-- episode unless `whole` says a row holds all of its episode's runs (never
-- here: view_verdict_runs_episodes.sql is the view of a table known to
-- hold one row per episode). Used when every verdicts file of the
-- session's snapshot has its run counts; else view_verdict_runs_scan.sql
-- gives rows that sum to the same from the verdicts. Plain SQL that Spark
-- runs too (queries/spark).
CREATE OR REPLACE TEMPORARY VIEW verdict_runs AS
SELECT judge, condition, episode_id, n_runs, n_parse, n_success, n_failure, n_uncertain,
    score_1, score_2, score_3, false AS whole
FROM run_counts
