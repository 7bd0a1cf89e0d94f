-- name: ReportHealthEpisodes
-- The data-health counts of the report: episodes, and episodes without
-- ground truth of any source. The verifier counts are
-- report_health_verifiers.sql's.
SELECT
    (SELECT count(*) FROM episodes) AS episodes,
    (SELECT count(*) FROM episodes e
        WHERE NOT EXISTS (SELECT 1 FROM ground_truth g WHERE g.episode_id = e.episode_id)) AS without_gt
