-- name: MetricsCells
-- Per-task sufficient statistics of every metric: metric_episodes($3, $4)
-- (threshold $3 for score-only runs, reference $4) summed
-- per (judge, condition, task, source, ground truth, [agent], [category]).
-- $1 keeps the agent in the key, $2 the effective category; when false the
-- column is '' so the cells stay few. Consistency columns count episodes
-- with at least two valid runs: n_agree those whose valid runs all agree,
-- fleiss_p the sum of their observed pairwise agreement (to 1e-12)
-- Σ_j n_j(n_j−1) / (n(n−1)), fleiss_* their runs per verdict.
SELECT
    judge, condition, task_id, source, gt_pass,
    CASE WHEN $1 THEN coalesce(agent, '') ELSE '' END      AS agent,
    CASE WHEN $2 THEN coalesce(category, '') ELSE '' END   AS category,
    count(*)                                               AS n_episodes,
    count_if(majority = 'success')                         AS maj_success,
    count_if(majority = 'failure')                         AS maj_failure,
    count_if(majority = 'uncertain')                       AS maj_uncertain,
    count_if(n_unscored > 0)                               AS n_unscored,
    sum(n_runs)                                            AS n_runs,
    sum(n_parse)                                           AS n_parse,
    count_if(n_valid >= 2)                                 AS n_eligible,
    count_if(n_valid >= 2 AND greatest(n_success, n_failure, n_uncertain) = n_valid) AS n_agree,
    -- Summed as integers (units of 1e-12) so that the result does not
    -- depend on the order DuckDB's threads add the rows in.
    -- Integer division rounding half up: exact, and far cheaper in DuckDB
    -- than round() of a double cast back to BIGINT.
    CAST(sum(CASE WHEN n_valid >= 2 THEN
        (1000000000000 * (n_success * (n_success - 1) + n_failure * (n_failure - 1) + n_uncertain * (n_uncertain - 1))
            + (n_valid * (n_valid - 1)) // 2) // (n_valid * (n_valid - 1))
        ELSE 0 END) AS DOUBLE) / 1e12                      AS fleiss_p,
    sum(CASE WHEN n_valid >= 2 THEN n_success ELSE 0 END)   AS fleiss_success,
    sum(CASE WHEN n_valid >= 2 THEN n_failure ELSE 0 END)   AS fleiss_failure,
    sum(CASE WHEN n_valid >= 2 THEN n_uncertain ELSE 0 END) AS fleiss_uncertain
FROM metric_episodes(CAST($3 AS DOUBLE), $4)
GROUP BY ALL
ORDER BY ALL
