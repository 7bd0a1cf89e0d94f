-- name: AgreementJudges
-- Krippendorff coincidences between judges under each condition, per
-- task: units are the episodes of one source with a task, values each
-- judge's majority verdict (success, failure or uncertain; a judge with no
-- valid run, or unscored runs without a threshold, gives none). Each unit
-- with m ≥ 2 values adds n_c·(n_c − 1)/(m − 1) to o_cc and n_c·n_k/(m − 1)
-- to o_ck. metric_episodes has one row per judge, condition and episode,
-- so m also counts the unit's judges. Parameters: thr, source.
WITH units AS (
    SELECT condition, episode_id, any_value(task_id) AS task_id,
        count_if(majority = 'success')   AS n_s,
        count_if(majority = 'failure')   AS n_f,
        count_if(majority = 'uncertain') AS n_u,
        count(*)                         AS m
    FROM metric_episodes(CAST(? AS DOUBLE), 'verifier')
    WHERE n_valid > 0 AND n_unscored = 0 AND task_id IS NOT NULL AND source = ?
    GROUP BY condition, episode_id
)
SELECT condition, task_id,
    count(*)                                           AS units,
    sum(CAST(n_s * (n_s - 1) AS DOUBLE) / (m - 1))     AS o_ss,
    sum(CAST(n_f * (n_f - 1) AS DOUBLE) / (m - 1))     AS o_ff,
    sum(CAST(n_u * (n_u - 1) AS DOUBLE) / (m - 1))     AS o_uu,
    sum(CAST(n_s * n_f AS DOUBLE) / (m - 1))           AS o_sf,
    sum(CAST(n_s * n_u AS DOUBLE) / (m - 1))           AS o_su,
    sum(CAST(n_f * n_u AS DOUBLE) / (m - 1))           AS o_fu,
    max(m)                                             AS judges
FROM units
WHERE m >= 2
GROUP BY condition, task_id
ORDER BY condition, task_id
