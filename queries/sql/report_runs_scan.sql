-- name: ReportRunsScan
-- report_runs.sql for a snapshot whose run counts do not count every
-- verdicts file: the rows of the view verdict_runs (then one per run, from
-- the verdicts), without run numbers (the reward models' scores are then
-- read by report_scores.sql).
SELECT hash(judge, condition) AS jc, hash(episode_id) AS episode,
    CAST(n_runs AS INTEGER) AS n_runs, CAST(n_parse AS INTEGER) AS n_parse,
    CAST(n_success AS INTEGER) AS n_success, CAST(n_failure AS INTEGER) AS n_failure,
    CAST(n_uncertain AS INTEGER) AS n_uncertain, score_1, score_2, score_3,
    NULL::BIGINT AS run_1, NULL::BIGINT AS run_2, NULL::BIGINT AS run_3, NULL::BIGINT AS n_scored_verdicts
FROM verdict_runs
