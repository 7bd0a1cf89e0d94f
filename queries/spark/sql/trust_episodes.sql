-- name: TrustEpisodes
-- Spark dialect of queries/sql/trust_episodes.sql: a cached table instead
-- of a temporary one (`div` for `//`); buckets of about $1 actions.
CACHE TABLE trust_episodes AS
WITH counts AS (
    SELECT a.episode_id, count(*) AS n
    FROM actions AS a
    WHERE a.episode_id IN (
        SELECT r.episode_id
        FROM results AS r
        JOIN trust_scope AS s ON s.benchmark = r.benchmark
        WHERE r.episode_id IS NOT NULL
    )
    GROUP BY a.episode_id
)
SELECT episode_id, n,
    CAST((sum(n) OVER (ORDER BY episode_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - n) div CAST($1 AS BIGINT) AS BIGINT) AS bucket
FROM counts
