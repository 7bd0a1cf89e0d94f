-- name: MetricsRuns
-- metric_runs: the runs of every (judge, condition, episode) counted once
-- per session, for threshold $1, with every column the per_episode parts
-- of metrics_cells, metric_episodes, metrics_judge_conditions and
-- metrics_scores compute (the same expressions as metrics_cells: a
-- score-only run is success at score >= $1, else failure, unscored when $1
-- is NULL; n_score_only counts those runs whatever $1 is; score is the mean
-- of the runs' non-null scores). A report reads it for its judge table,
-- claim sway, reward models and judge × conditions instead of grouping the
-- verdicts again for each.
CREATE OR REPLACE TEMP TABLE metric_runs AS
SELECT judge, condition, episode_id,
    count(*)                                                          AS n_runs,
    count_if(coalesce(verdict = 'parse_error', false))                AS n_parse,
    count_if(coalesce(verdict = 'success', score >= CAST($1 AS DOUBLE), false)) AS n_success,
    count_if(coalesce(verdict = 'failure',
        CAST($1 AS DOUBLE) IS NOT NULL AND NOT coalesce(score >= CAST($1 AS DOUBLE), false))) AS n_failure,
    count_if(coalesce(verdict = 'uncertain', false))                  AS n_uncertain,
    count_if(verdict IS NULL AND CAST($1 AS DOUBLE) IS NULL)          AS n_unscored,
    count_if(verdict IS NULL)                                         AS n_score_only,
    avg(score)                                                        AS score,
    count(score)                                                      AS n_scored
FROM verdicts
GROUP BY judge, condition, episode_id
