-- name: ViewVerdictRunsEpisodes
-- verdict_runs (see view_verdict_runs.sql) over a run_counts table that
-- holds exactly one row per (judge, condition, episode)
-- (runcounts.PerEpisode: one counts file per partition, no episode
-- continued in a further row): every row is whole, so readers take the
-- rows as they are instead of summing them per episode.
-- Plain SQL that Spark runs too (queries/spark).
CREATE OR REPLACE TEMPORARY VIEW verdict_runs AS
SELECT judge, condition, episode_id, n_runs, n_parse, n_success, n_failure, n_uncertain,
    score_1, score_2, score_3, true AS whole
FROM run_counts
