-- name: ReportEpisodes
-- The report's episodes (Session.ReadReportRuns): every episode that has an
-- episode row or a ground-truth or label row, with the attributes the
-- metrics cells, pairs and scores key on: task, source, agent, the
-- verifier's ground truth (view categories), the human majority (view
-- human_reference) and the effective category. The same joins as
-- episode_cells in metrics_cells.sql and those of metric_episodes
-- (metrics_episodes.sql). code is hash(episode_id), which report_runs.sql
-- and report_scores.sql return instead of the id.
SELECT coalesce(e.episode_id, c.episode_id) AS episode_id, e.task_id, e.source, e.agent,
    c.gt_pass, h.pass AS human_pass, c.category, c.needs_review, c.category_raw,
    hash(coalesce(e.episode_id, c.episode_id)) AS code
FROM episodes e
FULL OUTER JOIN categories c ON c.episode_id = e.episode_id
LEFT JOIN human_reference h ON h.episode_id = coalesce(e.episode_id, c.episode_id)
