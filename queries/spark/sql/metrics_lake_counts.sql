-- name: MetricsLakeCounts
-- Spark dialect of queries/sql/metrics_lake_counts.sql.
SELECT
    (SELECT count(*) FROM verdicts)     AS n_verdicts,
    (SELECT count(*) FROM episodes)     AS n_episodes,
    (SELECT count(*) FROM ground_truth) AS n_ground_truth
