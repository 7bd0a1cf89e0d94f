-- name: MetricsEpisodesKeep
-- Keeps the rows of metric_episodes($1, $2) (metrics_episodes.sql) in a
-- temporary table, for a caller that reads them in several statements
-- (the report: claim-sway pairs, corrected rates, agreement): each would
-- otherwise count the runs per episode and join the episodes again.
CREATE OR REPLACE TEMP TABLE metric_episodes_kept AS
SELECT * FROM metric_episodes(CAST($1 AS DOUBLE), $2)
