-- name: TrustEpisodes
-- trust_episodes holds the episodes that results in trust_scope point at
-- and that have actions, with their number of actions, split into buckets
-- of about $1 actions (consecutive episode ids) so that TrustActions
-- fetches one bucket at a time: the DuckDB driver materializes a query's
-- whole result, and every trajectory at once would hold all of them.
CREATE OR REPLACE TEMP TABLE trust_episodes AS
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
    CAST((sum(n) OVER (ORDER BY episode_id) - n) // CAST($1 AS BIGINT) AS BIGINT) AS bucket
FROM counts
