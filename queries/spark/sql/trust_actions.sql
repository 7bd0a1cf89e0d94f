-- name: TrustActions
-- Spark dialect of queries/sql/trust_actions.sql (the same statement).
SELECT a.episode_id, a.step, a.role, a.text, a.keys, a.tool_name,
    a.arguments, a.observation
FROM actions AS a
JOIN trust_episodes AS e ON e.episode_id = a.episode_id
WHERE e.bucket = $1
ORDER BY a.episode_id, a.step
