-- name: ReportHealthVerifiers
-- The verifier health of the report: verifiers behind the ground truth,
-- those with an ok pass and an ok fail fixture self-test, self-test runs
-- and failures, verifiers that were ever nondeterministic (in a self-test
-- or a ground-truth run). The episode counts are
-- report_health_episodes.sql's.
WITH gt AS (
    SELECT DISTINCT verifier_sha256 FROM ground_truth
),
st AS (
    SELECT verifier_sha256,
           bool_or(want_pass AND ok) AND bool_or(NOT want_pass AND ok) AS tested,
           count(*)                 AS runs,
           count_if(NOT ok)         AS failures,
           bool_or(NOT deterministic) AS nondet
    FROM selftests
    GROUP BY verifier_sha256
),
nondet AS (
    SELECT verifier_sha256 FROM st WHERE nondet
    UNION
    SELECT verifier_sha256 FROM ground_truth WHERE deterministic = false
)
SELECT
    (SELECT count(*) FROM gt)                                                  AS verifiers,
    (SELECT count(*) FROM gt JOIN st USING (verifier_sha256) WHERE st.tested)  AS tested,
    (SELECT coalesce(sum(runs), 0) FROM st)                                    AS selftests,
    (SELECT coalesce(sum(failures), 0) FROM st)                                AS failures,
    (SELECT count(*) FROM nondet)                                              AS nondeterministic
