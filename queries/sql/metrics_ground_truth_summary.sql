-- name: MetricsGroundTruthSummary
-- What the lake records about the verifiers behind the ground truth of the
-- episodes judged by judge $1 under condition $2 with source $3: rows,
-- verifiers, and the deterministic flag (true, false, not recorded).
SELECT
    count(*)                                AS n_rows,
    count(DISTINCT g.verifier_sha256)       AS n_verifiers,
    count_if(g.deterministic)               AS n_deterministic,
    count_if(NOT g.deterministic)           AS n_nondeterministic,
    count_if(g.deterministic IS NULL)       AS n_unknown,
    count(DISTINCT g.episode_id)            AS n_episodes
FROM ground_truth g
WHERE g.episode_id IN (
    SELECT v.episode_id FROM verdicts v JOIN episodes e USING (episode_id)
    WHERE v.judge = $1 AND v.condition = $2 AND e.source = $3
)
