-- name: TrustGroundTruth
-- Spark dialect of queries/sql/trust_ground_truth.sql (the same statement).
SELECT g.episode_id, g.verifier_sha256, g.pass, g.score, g.gates,
    g.deterministic
FROM ground_truth AS g
WHERE g.source IS DISTINCT FROM 'human' AND g.episode_id IN (
    SELECT r.episode_id
    FROM results AS r
    JOIN trust_scope AS s ON s.benchmark = r.benchmark
    WHERE r.episode_id IS NOT NULL
)
ORDER BY g.episode_id, g.verifier_sha256
