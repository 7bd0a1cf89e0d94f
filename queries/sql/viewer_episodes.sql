-- name: ViewerEpisodes
-- One page of the episode list of `trustlake view` (Session.ViewerEpisodes):
-- every episode (episodes table, or ground truth without an episode row)
-- with its task, agent, source, ground truth ($2: 'verifier', 'human' or
-- 'any', as metric_episodes reads it), effective category (view
-- categories) and, when a judge × condition is chosen ($3, $4), that
-- judge's runs and majority (metric_episodes at threshold $1). Filters are
-- NULL when unused: $5 outcome (fp, fn, tp, tn, uncertain, parse_error;
-- accepted = majority success, or uncertain under policy $6 'success'),
-- $7 category, $8 source, $9 hardness, $10 task, $11 agent, $12 reviewed
-- (true/false), $13 vs kind ('jc' with the judge × condition $14, $15:
-- their acceptances differ; 'human': the judge's acceptance differs from
-- the human reference; 'verifier-human': the verifier and the human
-- reference differ), $16 accepted_by_any (some judge's majority is
-- success). Ordered by (task, episode); $17, $18 is the keyset cursor (the
-- last row's task and episode), $19 the page size; with $20 true the page
-- before the cursor, nearest first (an episode's previous link).
WITH base AS (
    SELECT coalesce(e.episode_id, c.episode_id) AS episode_id,
        coalesce(e.task_id, '') AS task_id, e.agent, e.source,
        c.gt_pass AS verifier_pass, h.pass AS human_pass,
        CASE $2 WHEN 'verifier' THEN c.gt_pass
                WHEN 'human' THEN h.pass
                ELSE coalesce(c.gt_pass, h.pass) END AS gt_pass,
        c.category, c.category_from
    FROM episodes e
    FULL OUTER JOIN categories c ON c.episode_id = e.episode_id
    LEFT JOIN human_reference h ON h.episode_id = coalesce(e.episode_id, c.episode_id)
),
j AS (
    SELECT episode_id, n_runs, n_parse, n_success, n_failure, n_uncertain, majority,
        CASE majority WHEN 'success' THEN true WHEN 'failure' THEN false
            ELSE CASE $6 WHEN 'success' THEN true WHEN 'failure' THEN false END END AS accepted
    FROM metric_episodes(CAST($1 AS DOUBLE), $2)
    WHERE judge = $3 AND condition = $4
),
v AS (
    SELECT episode_id, majority,
        CASE majority WHEN 'success' THEN true WHEN 'failure' THEN false
            ELSE CASE $6 WHEN 'success' THEN true WHEN 'failure' THEN false END END AS accepted
    FROM metric_episodes(CAST($1 AS DOUBLE), $2)
    WHERE $13 = 'jc' AND judge = $14 AND condition = $15
),
reviewed AS (SELECT DISTINCT episode_id FROM reviews),
rows AS (
    SELECT b.*,
        CASE b.category WHEN 'F-PARTIAL' THEN 'hard' WHEN 'F-UNCOMMITTED' THEN 'hard'
            WHEN 'F-WRONGTARGET' THEN 'hard' WHEN 'F-SIDEEFFECT' THEN 'hard'
            WHEN 'F-ABORT' THEN 'obvious' WHEN 'F-WRONGAPP' THEN 'obvious'
            WHEN 'F-CLAIM' THEN 'claim' END AS hardness,
        r.episode_id IS NOT NULL AS is_reviewed,
        j.episode_id IS NOT NULL AS judged,
        j.n_runs, j.n_parse, j.n_success, j.n_failure, j.n_uncertain, j.majority, j.accepted,
        v.majority AS vs_majority, v.accepted AS vs_accepted
    FROM base b
    LEFT JOIN j ON j.episode_id = b.episode_id
    LEFT JOIN v ON v.episode_id = b.episode_id
    LEFT JOIN reviewed r ON r.episode_id = b.episode_id
)
SELECT episode_id, task_id, agent, source, verifier_pass, human_pass, gt_pass, category, category_from,
    hardness, is_reviewed, n_runs, n_parse, n_success, n_failure, n_uncertain, majority, vs_majority
FROM rows
WHERE ($3 IS NULL OR judged)
  AND ($5 IS NULL
       OR ($5 = 'fp' AND gt_pass = false AND accepted = true)
       OR ($5 = 'tn' AND gt_pass = false AND accepted = false)
       OR ($5 = 'tp' AND gt_pass = true AND accepted = true)
       OR ($5 = 'fn' AND gt_pass = true AND accepted = false)
       OR ($5 = 'uncertain' AND majority = 'uncertain')
       OR ($5 = 'parse_error' AND n_parse > 0))
  AND ($7 IS NULL OR category = $7)
  AND ($8 IS NULL OR source = $8)
  AND ($9 IS NULL OR hardness = $9)
  AND ($10 IS NULL OR task_id = $10)
  AND ($11 IS NULL OR agent = $11)
  AND ($12 IS NULL OR is_reviewed = $12)
  AND ($13 IS NULL
       OR ($13 = 'jc' AND vs_accepted IS NOT NULL AND accepted IS NOT NULL AND vs_accepted <> accepted)
       OR ($13 = 'human' AND accepted IS NOT NULL AND human_pass IS NOT NULL AND accepted <> human_pass)
       OR ($13 = 'verifier-human' AND verifier_pass IS NOT NULL AND human_pass IS NOT NULL AND verifier_pass <> human_pass))
  AND ($16 IS NULL OR NOT $16 OR episode_id IN (
       SELECT episode_id FROM metric_episodes(CAST($1 AS DOUBLE), $2) WHERE majority = 'success'))
  AND ($17 IS NULL
       OR (NOT $20 AND (task_id > $17 OR (task_id = $17 AND episode_id > $18)))
       OR ($20 AND (task_id < $17 OR (task_id = $17 AND episode_id < $18))))
ORDER BY CASE WHEN $20 THEN task_id END DESC, CASE WHEN $20 THEN episode_id END DESC, task_id, episode_id
LIMIT $19
