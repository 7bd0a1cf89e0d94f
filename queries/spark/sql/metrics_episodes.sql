-- name: MetricsEpisodes
-- Spark dialect of queries/sql/metrics_episodes.sql. Spark has no table
-- macros: metric_episodes is a temporary view for threshold $1 (a DOUBLE
-- literal or NULL) and reference $2 ('verifier', 'human' or 'any'),
-- redefined when they change; Spark inlines views as DuckDB inlines macros.
CREATE OR REPLACE TEMPORARY VIEW metric_episodes AS
WITH runs AS (
    SELECT judge, condition, episode_id,
        CASE
            WHEN verdict IS NOT NULL THEN verdict
            WHEN $1 IS NULL THEN 'unscored'
            WHEN score >= $1 THEN 'success'
            ELSE 'failure'
        END AS v
    FROM verdicts
),
per_episode AS (
    SELECT judge, condition, episode_id,
        count(*)                      AS n_runs,
        count_if(v = 'parse_error')   AS n_parse,
        count_if(v = 'success')       AS n_success,
        count_if(v = 'failure')       AS n_failure,
        count_if(v = 'uncertain')     AS n_uncertain,
        count_if(v = 'unscored')      AS n_unscored
    FROM runs
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
