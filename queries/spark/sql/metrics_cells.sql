-- name: MetricsCells
-- Spark dialect of queries/sql/metrics_cells.sql: `div` for DuckDB's `//`,
-- metric_episodes a view (see metrics_episodes.sql), explicit NULLS LAST.
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
    CAST(sum(CASE WHEN n_valid >= 2 THEN
        (1000000000000 * (n_success * (n_success - 1) + n_failure * (n_failure - 1) + n_uncertain * (n_uncertain - 1))
            + (n_valid * (n_valid - 1)) div 2) div (n_valid * (n_valid - 1))
        ELSE 0 END) AS DOUBLE) / 1e12                      AS fleiss_p,
    sum(CASE WHEN n_valid >= 2 THEN n_success ELSE 0 END)   AS fleiss_success,
    sum(CASE WHEN n_valid >= 2 THEN n_failure ELSE 0 END)   AS fleiss_failure,
    sum(CASE WHEN n_valid >= 2 THEN n_uncertain ELSE 0 END) AS fleiss_uncertain
FROM metric_episodes
GROUP BY ALL
ORDER BY judge, condition, task_id NULLS LAST, source NULLS LAST, gt_pass NULLS LAST, agent, category
