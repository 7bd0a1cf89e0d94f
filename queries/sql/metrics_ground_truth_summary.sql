-- name: MetricsGroundTruthSummary
-- What the lake records about the verifiers behind the ground truth of the
-- episodes judged by judge $1 under condition $2 with source $3: rows,
-- verifiers, the deterministic flag (true, false, not recorded), and how
-- many of those verifiers passed a recorded self-test (`tasks check
-- --record`: every fixture right, at least one pass and one fail fixture).
-- count(*) FILTER, not count_if: count_if over only NULLs is NULL.
WITH gt AS (
    SELECT g.* FROM ground_truth g
    WHERE g.source IS DISTINCT FROM 'human' AND g.episode_id IN (
        SELECT v.episode_id FROM verdicts v JOIN episodes e USING (episode_id)
        WHERE v.judge = $1 AND v.condition = $2 AND e.source = $3
    )
),
tested AS (
    SELECT verifier_sha256 FROM selftests
    GROUP BY verifier_sha256
    HAVING bool_and(ok) AND count_if(want_pass) > 0 AND count_if(NOT want_pass) > 0
)
SELECT
    count(*)                                AS n_rows,
    count(DISTINCT gt.verifier_sha256)      AS n_verifiers,
    count(*) FILTER (gt.deterministic)      AS n_deterministic,
    count(*) FILTER (NOT gt.deterministic)  AS n_nondeterministic,
    count(*) FILTER (gt.deterministic IS NULL) AS n_unknown,
    count(DISTINCT gt.episode_id)           AS n_episodes,
    count(DISTINCT gt.verifier_sha256) FILTER (gt.verifier_sha256 IN (SELECT verifier_sha256 FROM tested)) AS n_tested,
    (SELECT count(*) FROM selftests)        AS n_selftests
FROM gt
