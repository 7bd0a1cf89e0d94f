-- name: MetricsCells
-- Per-task sufficient statistics of every metric, in one pass over the
-- run counts (view verdict_runs: the run_counts table, or the verdicts
-- counted on the fly in a lake written before it): runs are summed per
-- (judge, condition, episode) (the same
-- rules as metric_episodes in metrics_episodes.sql: a score-only run is
-- success at score >= $3, else failure, and unscored when $3 is NULL;
-- parse_error runs are not valid; the majority is the verdict with strictly
-- more valid runs than each other one, else uncertain), joined with the
-- episode's task, agent, source, ground truth and effective category, and
-- summed per (judge, condition, task, source, ground truth, [agent],
-- [category]). The ground truth is the reference $4: 'verifier' (the
-- verifier's verdict, view categories), 'human' (the majority of the human
-- judgments, view human_reference; NULL on a tie) or 'any' (the verifier's,
-- else the human majority). $1 keeps the agent in the key, $2 the category; when false
-- the column is '' so the cells stay few. Consistency columns count
-- episodes with at least two valid runs: n_agree those whose valid runs all
-- agree, fleiss_p the sum of their observed pairwise agreement
-- Σ_j n_j(n_j−1) / (n(n−1)) (to 1e-12), fleiss_* their runs per verdict.
-- Plain SQL that DuckDB and Spark both accept (no macros, no `//`). The
-- per_episode part is also what a DuckDB session materialises once into the
-- table metric_runs for threshold $3 (Session.MaterializeRuns, the
-- report); it then reads per_episode from that table instead.
WITH per_episode AS (
-- per_episode:begin
    SELECT judge, condition, episode_id,
        CAST(sum(n_runs) AS BIGINT)                                       AS n_runs,
        CAST(sum(n_parse) AS BIGINT)                                      AS n_parse,
        CAST(sum(n_success
            + CASE WHEN score_1 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END) AS BIGINT) AS n_success,
        CAST(sum(n_failure
            + CASE WHEN score_1 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END) AS BIGINT) AS n_failure,
        CAST(sum(n_uncertain) AS BIGINT)                                  AS n_uncertain,
        CAST(sum(CASE WHEN CAST($3 AS DOUBLE) IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END) AS BIGINT) AS n_unscored,
        -- score-only runs whatever $3 is (metric_runs keeps it for the
        -- judge × conditions; unused here)
        CAST(sum(n_runs - n_parse - n_success - n_failure - n_uncertain) AS BIGINT) AS n_score_only
    FROM verdict_runs
    GROUP BY judge, condition, episode_id
-- per_episode:end
),
-- Every episode's cell attributes, and a small integer per distinct cell so
-- that the big aggregation groups by numbers, not strings.
episode_cells AS (
    SELECT coalesce(e.episode_id, c.episode_id) AS episode_id, e.task_id, e.source,
        CASE $4 WHEN 'verifier' THEN c.gt_pass
                WHEN 'human' THEN h.pass
                ELSE coalesce(c.gt_pass, h.pass) END                      AS gt_pass,
        CASE WHEN $1 THEN coalesce(e.agent, '') ELSE '' END               AS agent,
        CASE WHEN $2 THEN coalesce(c.category, '') ELSE '' END            AS category
    FROM episodes e
    FULL OUTER JOIN categories c ON c.episode_id = e.episode_id
    LEFT JOIN human_reference h ON h.episode_id = coalesce(e.episode_id, c.episode_id)
),
numbered AS (
    SELECT episode_id, task_id, source, gt_pass, agent, category,
        dense_rank() OVER (ORDER BY task_id, source, gt_pass, agent, category) AS cell
    FROM episode_cells
),
cells AS (
    SELECT DISTINCT cell, task_id, source, gt_pass, agent, category FROM numbered
),
judged AS (
    SELECT p.judge, p.condition, coalesce(n.cell, 0) AS cell,
        p.n_runs, p.n_parse, p.n_success, p.n_failure, p.n_uncertain, p.n_unscored,
        p.n_success + p.n_failure + p.n_uncertain                         AS n_valid
    FROM per_episode p
    LEFT JOIN numbered n ON n.episode_id = p.episode_id
),
-- Summed per cell and number of valid runs n, so that the agreement of
-- n(n−1) pairs is one exact integer sum per n.
by_valid AS (
    SELECT judge, condition, cell, n_valid,
        count(*)                                                          AS n_episodes,
        count_if(n_success > n_failure AND n_success > n_uncertain)       AS maj_success,
        count_if(n_failure > n_success AND n_failure > n_uncertain)       AS maj_failure,
        count_if(n_unscored > 0)                                          AS n_unscored,
        sum(n_runs)                                                       AS n_runs,
        sum(n_parse)                                                      AS n_parse,
        count_if(greatest(n_success, n_failure, n_uncertain) = n_valid)   AS n_agree,
        sum(n_success * (n_success - 1) + n_failure * (n_failure - 1) + n_uncertain * (n_uncertain - 1)) AS pairs_agree,
        sum(n_success)                                                    AS n_success,
        sum(n_failure)                                                    AS n_failure,
        sum(n_uncertain)                                                  AS n_uncertain
    FROM judged
    GROUP BY judge, condition, cell, n_valid
),
per_cell AS (
SELECT judge, condition, cell,
    CAST(sum(n_episodes) AS BIGINT)                                       AS n_episodes,
    CAST(sum(maj_success) AS BIGINT)                                      AS maj_success,
    CAST(sum(maj_failure) AS BIGINT)                                      AS maj_failure,
    CAST(sum(n_episodes - maj_success - maj_failure) AS BIGINT)           AS maj_uncertain,
    CAST(sum(n_unscored) AS BIGINT)                                       AS n_unscored,
    CAST(sum(n_runs) AS BIGINT)                                           AS n_runs,
    CAST(sum(n_parse) AS BIGINT)                                          AS n_parse,
    CAST(sum(CASE WHEN n_valid >= 2 THEN n_episodes ELSE 0 END) AS BIGINT) AS n_eligible,
    CAST(sum(CASE WHEN n_valid >= 2 THEN n_agree ELSE 0 END) AS BIGINT)    AS n_agree,
    -- Σ over episodes of pairs agreeing / n(n−1), in units of 1e-12 rounded
    -- per n, summed as integers: the result does not depend on the order
    -- the engine's threads add rows in.
    CAST(sum(CASE WHEN n_valid >= 2
        THEN CAST(round(1e12 * pairs_agree / (n_valid * (n_valid - 1))) AS BIGINT) ELSE 0 END) AS DOUBLE) / 1e12 AS fleiss_p,
    CAST(sum(CASE WHEN n_valid >= 2 THEN n_success ELSE 0 END) AS BIGINT)   AS fleiss_success,
    CAST(sum(CASE WHEN n_valid >= 2 THEN n_failure ELSE 0 END) AS BIGINT)   AS fleiss_failure,
    CAST(sum(CASE WHEN n_valid >= 2 THEN n_uncertain ELSE 0 END) AS BIGINT) AS fleiss_uncertain
FROM by_valid
GROUP BY judge, condition, cell
)
SELECT p.judge, p.condition, c.task_id, c.source, c.gt_pass, coalesce(c.agent, '') AS agent, coalesce(c.category, '') AS category,
    p.n_episodes, p.maj_success, p.maj_failure, p.maj_uncertain, p.n_unscored, p.n_runs, p.n_parse,
    p.n_eligible, p.n_agree, p.fleiss_p, p.fleiss_success, p.fleiss_failure, p.fleiss_uncertain
FROM per_cell p
LEFT JOIN cells c ON c.cell = p.cell
ORDER BY p.judge, p.condition, c.task_id NULLS LAST, source NULLS LAST, gt_pass NULLS LAST, agent, category
