-- name: AgreementHuman
-- Krippendorff coincidences between human annotators, per task: units are
-- the episodes with two or more human pass/fail judgments (ground truth
-- with source human), values pass (s) and fail (f). Each unit with m
-- judgments adds n_c·(n_c − 1)/(m − 1) to o_cc and n_c·n_k/(m − 1) to
-- o_ck. Episodes without a task are their own cluster (task '').
SELECT coalesce(e.task_id, '') AS task_id,
    count(*)                                                                   AS units,
    sum(CAST(h.n_pass * (h.n_pass - 1) AS DOUBLE) / (h.n_annotators - 1))      AS o_ss,
    sum(CAST(h.n_fail * (h.n_fail - 1) AS DOUBLE) / (h.n_annotators - 1))      AS o_ff,
    sum(CAST(h.n_pass * h.n_fail AS DOUBLE) / (h.n_annotators - 1))            AS o_sf
FROM human_reference h
LEFT JOIN episodes e ON e.episode_id = h.episode_id
WHERE h.n_annotators >= 2
GROUP BY ALL
ORDER BY ALL
