-- name: ReportRuns
-- The run counts of every (judge, condition, episode) as the view
-- verdict_runs holds them (one or more rows per episode: the caller sums
-- them, Session.ReadReportRuns), with the episode's number i in
-- report_episodes (report_episodes.sql; NULL for an episode with no
-- episode, ground-truth or label row, whose id is then given).
SELECT v.judge, v.condition, r.i, CASE WHEN r.i IS NULL THEN v.episode_id END AS episode_id,
    CAST(v.n_runs AS INTEGER) AS n_runs, CAST(v.n_parse AS INTEGER) AS n_parse,
    CAST(v.n_success AS INTEGER) AS n_success, CAST(v.n_failure AS INTEGER) AS n_failure,
    CAST(v.n_uncertain AS INTEGER) AS n_uncertain, v.score_1, v.score_2, v.score_3
FROM verdict_runs v
LEFT JOIN report_episodes r ON r.episode_id = v.episode_id
