-- name: ViewVerdictRunsScan
-- verdict_runs from the verdicts themselves, one row per run: the fallback
-- of view_verdict_runs.sql for a lake whose verdicts files do not all have
-- their run counts (written before run_counts; `lake compact` adds them).
-- Its rows sum per episode to what the run counts give (none is whole).
-- Plain SQL that Spark runs too (queries/spark).
CREATE OR REPLACE TEMPORARY VIEW verdict_runs AS
SELECT judge, condition, episode_id,
    1                                                               AS n_runs,
    CASE WHEN verdict = 'parse_error' THEN 1 ELSE 0 END             AS n_parse,
    CASE WHEN verdict = 'success' THEN 1 ELSE 0 END                 AS n_success,
    CASE WHEN verdict = 'failure' THEN 1 ELSE 0 END                 AS n_failure,
    CASE WHEN verdict = 'uncertain' THEN 1 ELSE 0 END               AS n_uncertain,
    CASE WHEN verdict IS NULL THEN score END                        AS score_1,
    CAST(NULL AS DOUBLE)                                            AS score_2,
    CAST(NULL AS DOUBLE)                                            AS score_3,
    false                                                           AS whole
FROM verdicts
