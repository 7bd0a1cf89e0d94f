-- name: MetricsEpisodes
-- Spark dialect of queries/sql/metrics_episodes.sql. Spark has no table
-- macros: metric_episodes is a temporary view for threshold $1 (a DOUBLE
-- literal or NULL) and reference $2 ('verifier', 'human' or 'any'),
-- redefined when they change; Spark inlines views as DuckDB inlines macros.
CREATE OR REPLACE TEMPORARY VIEW metric_episodes AS
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        CAST(n_runs AS BIGINT)                                            AS n_runs,
        CAST(n_parse AS BIGINT)                                           AS n_parse,
        CAST(n_success
            + CASE WHEN score_1 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END AS BIGINT) AS n_success,
        CAST(n_failure
            + CASE WHEN score_1 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END AS BIGINT) AS n_failure,
        CAST(n_uncertain AS BIGINT)                                       AS n_uncertain,
        CAST(CASE WHEN CAST($1 AS DOUBLE) IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE whole
    UNION ALL
    SELECT judge, condition, episode_id,
        CAST(sum(n_runs) AS BIGINT)                                       AS n_runs,
        CAST(sum(n_parse) AS BIGINT)                                      AS n_parse,
        CAST(sum(n_success
            + CASE WHEN score_1 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= CAST($1 AS DOUBLE) THEN 1 ELSE 0 END) AS BIGINT) AS n_success,
        CAST(sum(n_failure
            + CASE WHEN score_1 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 < CAST($1 AS DOUBLE) THEN 1 ELSE 0 END) AS BIGINT) AS n_failure,
        CAST(sum(n_uncertain) AS BIGINT)                                  AS n_uncertain,
        CAST(sum(CASE WHEN CAST($1 AS DOUBLE) IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END) AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE NOT whole
    GROUP BY judge, condition, episode_id
)
SELECT
    p.judge, p.condition, p.episode_id,
    p.n_runs, p.n_parse, p.n_success, p.n_failure, p.n_uncertain, p.n_unscored,
    p.n_success + p.n_failure + p.n_uncertain AS n_valid,
    CASE
        WHEN p.n_success > p.n_failure AND p.n_success > p.n_uncertain THEN 'success'
        WHEN p.n_failure > p.n_success AND p.n_failure > p.n_uncertain THEN 'failure'
        ELSE 'uncertain'
    END AS majority,
    e.task_id, e.agent, e.source,
    CASE $2 WHEN 'verifier' THEN c.gt_pass
            WHEN 'human' THEN h.pass
            ELSE coalesce(c.gt_pass, h.pass) END AS gt_pass,
    c.category
FROM per_episode p
LEFT JOIN episodes e ON e.episode_id = p.episode_id
LEFT JOIN categories c ON c.episode_id = p.episode_id
LEFT JOIN human_reference h ON h.episode_id = p.episode_id
