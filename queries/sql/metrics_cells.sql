-- name: MetricsCells
-- Per-task sufficient statistics of every metric, in one pass over the
-- run counts (view verdict_runs: the run_counts table, or the verdicts
-- counted on the fly in a lake written before it): runs are summed per
-- (judge, condition, episode), except in rows marked whole, which hold all
-- of their episode's runs already and are taken as they are (the same
-- rules as metric_episodes in metrics_episodes.sql: a score-only run is
-- success at score >= $3, else failure, and unscored when $3 is NULL;
-- parse_error runs are not valid; the majority is the verdict with strictly
-- more valid runs than each other one, else uncertain), joined with the
-- episode's task, agent, source, ground truth and effective category, and
-- summed per cell (judge, condition, task, source, ground truth, [agent],
-- [category]; `cell` numbers the last five) and number of valid runs
-- n_valid: queries.FoldCellGroups adds up a cell's rows. The ground truth
-- is the reference $4: 'verifier' (the verifier's verdict, view
-- categories), 'human' (the majority of the human judgments, view
-- human_reference; NULL on a tie) or 'any' (the verifier's, else the human
-- majority). $1 keeps the agent in the key, $2 the category; when false
-- the column is '' so the cells stay few. n_agree counts the episodes whose
-- valid runs all agree, pairs_agree sums their agreeing ordered pairs of
-- runs Σ_j n_j(n_j−1) (exact integers, whatever order the engine adds rows
-- in). Rows come in no particular order.
-- Plain SQL that DuckDB and Spark both accept (no macros, no `//`).
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        CAST(n_runs AS BIGINT)                                            AS n_runs,
        CAST(n_parse AS BIGINT)                                           AS n_parse,
        CAST(n_success
            + CASE WHEN score_1 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= CAST($3 AS DOUBLE) THEN 1 ELSE 0 END AS BIGINT) AS n_success,
        CAST(n_failure
            + CASE WHEN score_1 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_2 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END
            + CASE WHEN score_3 < CAST($3 AS DOUBLE) THEN 1 ELSE 0 END AS BIGINT) AS n_failure,
        CAST(n_uncertain AS BIGINT)                                       AS n_uncertain,
        CAST(CASE WHEN CAST($3 AS DOUBLE) IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE whole
    UNION ALL
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
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END) AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE NOT whole
    GROUP BY judge, condition, episode_id
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
-- n(n−1) pairs is one exact integer sum per n: the caller folds the rows
-- of a cell into its sufficient statistics (queries.FoldCellGroups).
by_valid AS (
    SELECT judge, condition, cell, n_valid,
        CAST(count(*) AS BIGINT)                                          AS n_episodes,
        CAST(count_if(n_success > n_failure AND n_success > n_uncertain) AS BIGINT)  AS maj_success,
        CAST(count_if(n_failure > n_success AND n_failure > n_uncertain) AS BIGINT)  AS maj_failure,
        CAST(count_if(n_unscored > 0) AS BIGINT)  AS n_unscored,
        CAST(sum(n_runs) AS BIGINT)                                       AS n_runs,
        CAST(sum(n_parse) AS BIGINT)                                      AS n_parse,
        CAST(count_if(greatest(n_success, n_failure, n_uncertain) = n_valid) AS BIGINT)  AS n_agree,
        CAST(sum(n_success * (n_success - 1) + n_failure * (n_failure - 1) + n_uncertain * (n_uncertain - 1)) AS BIGINT) AS pairs_agree,
        CAST(sum(n_success) AS BIGINT)                                    AS n_success,
        CAST(sum(n_failure) AS BIGINT)                                    AS n_failure,
        CAST(sum(n_uncertain) AS BIGINT)                                  AS n_uncertain
    FROM judged
    GROUP BY judge, condition, cell, n_valid
)
SELECT p.judge, p.condition, p.cell, c.task_id, c.source, c.gt_pass, coalesce(c.agent, '') AS agent, coalesce(c.category, '') AS category,
    p.n_valid, p.n_episodes, p.maj_success, p.maj_failure, p.n_unscored, p.n_runs, p.n_parse,
    p.n_agree, p.pairs_agree, p.n_success, p.n_failure, p.n_uncertain
FROM by_valid p
LEFT JOIN cells c ON c.cell = p.cell
