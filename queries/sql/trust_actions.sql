-- name: TrustActions
-- The saved trajectories of the results in trust_scope: the columns the
-- audit reads, grouped by episode and in step order.
SELECT a.episode_id, a.step, a.role, a.text, a.keys, a.tool_name,
    a.arguments, a.observation
FROM actions AS a
WHERE a.episode_id IN (
    SELECT r.episode_id
    FROM results AS r
    JOIN trust_scope AS s ON s.benchmark = r.benchmark
    WHERE r.episode_id IS NOT NULL
)
ORDER BY a.episode_id, a.step
