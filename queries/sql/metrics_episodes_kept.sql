-- name: MetricsEpisodesKept
-- metric_episodes(thr, gt) over the rows metrics_episodes_keep.sql kept:
-- defined only for the threshold and reference they were kept with
-- (queries.Session.defineMetricEpisodes), so the arguments are those.
CREATE OR REPLACE TEMP MACRO metric_episodes(thr, gt) AS TABLE
SELECT * FROM metric_episodes_kept
