-- name: MetricsLakeCounts
-- Row counts of the tables the metrics need, for clear messages when one is
-- empty.
SELECT
    (SELECT count(*) FROM verdicts)     AS n_verdicts,
    (SELECT count(*) FROM episodes)     AS n_episodes,
    (SELECT count(*) FROM ground_truth) AS n_ground_truth
