-- name: AgreementRuns
-- Krippendorff coincidences of each judge × condition's runs, per task:
-- units are the episodes of one source with a task and at least two
-- valid runs (parse errors are missing values), values the run verdicts
-- success (s), failure (f) and uncertain (u). Each unit with m valid runs
-- adds n_c·(n_c − 1)/(m − 1) to o_cc and n_c·n_k/(m − 1) to o_ck.
-- Score-only runs count only with a threshold (thr; unscored episodes
-- are left out). Parameters: thr, source.
SELECT judge, condition, task_id,
    count(*)                                                                             AS units,
    sum(CAST(n_success * (n_success - 1) AS DOUBLE) / (n_valid - 1))                     AS o_ss,
    sum(CAST(n_failure * (n_failure - 1) AS DOUBLE) / (n_valid - 1))                     AS o_ff,
    sum(CAST(n_uncertain * (n_uncertain - 1) AS DOUBLE) / (n_valid - 1))                 AS o_uu,
    sum(CAST(n_success * n_failure AS DOUBLE) / (n_valid - 1))                           AS o_sf,
    sum(CAST(n_success * n_uncertain AS DOUBLE) / (n_valid - 1))                         AS o_su,
    sum(CAST(n_failure * n_uncertain AS DOUBLE) / (n_valid - 1))                         AS o_fu
FROM metric_episodes(CAST(? AS DOUBLE), 'verifier')
WHERE n_valid >= 2 AND n_unscored = 0 AND task_id IS NOT NULL AND source = ?
GROUP BY judge, condition, task_id
ORDER BY judge, condition, task_id
