-- name: ReportEpisodes
-- The rows behind the report's episodes (Session.ReadReportRuns), as they
-- are stored, each tagged with its kind: 0 the episode rows (task, source,
-- agent), 1 the verifiers' ground-truth rows (pass, category, category_raw,
-- verifier_sha256), 2 the human categories (a review's, else a label's:
-- category, category_raw), 3 the
-- human majority (view human_reference; pass), 5 every verifier of the
-- ground truth, every source's (in the id column; pass: ever
-- nondeterministic there, as report_health_verifiers.sql counts them), and 4 the judge ×
-- conditions of verdict_runs (judge, condition in the id and task
-- columns; the partition columns only, no data page is read) with their
-- code hash(judge, condition), which report_runs.sql and report_scores.sql
-- return instead of the two strings. The caller joins the episodes' rows by
-- episode as the views categories and human_reference and the joins of
-- episode_cells (metrics_cells.sql) do: one verifier row per episode, the
-- first by verifier_sha256; a label's category before the verifier's.
-- Without categories' window and the joins, which cost DuckDB three times
-- the scans. code is hash(episode_id), which report_runs.sql and
-- report_scores.sql return instead of the id.
SELECT 0 AS kind, episode_id, task_id, source, agent, NULL::BOOLEAN AS pass,
    NULL::VARCHAR AS category, NULL::VARCHAR AS category_raw, NULL::VARCHAR AS verifier, hash(episode_id) AS code
FROM episodes
UNION ALL
SELECT 1, episode_id, NULL, NULL, NULL, pass, category, category_raw, verifier_sha256, hash(episode_id)
FROM ground_truth
WHERE source IS DISTINCT FROM 'human'
UNION ALL
SELECT 2, episode_id, NULL, NULL, NULL, NULL, category, category_raw, NULL, hash(episode_id)
FROM (
    -- the human category: the latest review that sets one (table reviews,
    -- as view categories reads it), else the label; one row per episode
    SELECT episode_id, category, category AS category_raw
    FROM (SELECT episode_id, category,
                 row_number() OVER (PARTITION BY episode_id ORDER BY reviewed_at DESC, review_id DESC) AS rn
          FROM reviews WHERE category IS NOT NULL)
    WHERE rn = 1
    UNION ALL
    SELECT episode_id, category, category_raw
    FROM labels
    WHERE episode_id NOT IN (SELECT episode_id FROM reviews WHERE category IS NOT NULL)
)
UNION ALL
SELECT 3, episode_id, NULL, NULL, NULL, pass, NULL, NULL, NULL, hash(episode_id)
FROM human_reference
UNION ALL
SELECT 5, verifier_sha256, NULL, NULL, NULL, bool_or(deterministic = false), NULL, NULL, NULL, NULL
FROM ground_truth
GROUP BY verifier_sha256
UNION ALL
SELECT DISTINCT 4, judge, condition, NULL, NULL, NULL, NULL, NULL, NULL, hash(judge, condition)
FROM verdict_runs
