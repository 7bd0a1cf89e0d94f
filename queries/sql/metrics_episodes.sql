-- name: MetricsEpisodes
-- metric_episodes(thr, gt) is a table macro with one row per (judge,
-- condition, episode): the judge's
-- runs counted by verdict, the majority verdict, and the episode's task,
-- agent, source, ground truth and effective failure category (NULL when the
-- lake has no episode row or no ground truth for it). gt picks the
-- reference: 'verifier' (the verifier's verdict), 'human' (the majority of
-- the human judgments, NULL on a tie) or 'any' (the verifier's, else the
-- human majority).
-- A score-only run (verdict NULL, a reward model) is 'success' when
-- score >= thr and 'failure' below it; with thr NULL it is 'unscored'.
-- Runs are read counted (view verdict_runs: the run_counts table, or the
-- verdicts counted on the fly in a lake written before it) and summed per
-- episode, except in whole rows (all of the episode's runs in one row).
-- A macro rather than a table: each query inlines it, so DuckDB pipelines
-- the per-episode aggregation into the per-task one and pushes judge and
-- condition filters down to the partitions.
-- The majority is the verdict with strictly more valid runs (success,
-- failure, uncertain) than each other one; parse_error runs are dropped; a
-- tie or no valid run gives 'uncertain'.
CREATE OR REPLACE TEMP MACRO metric_episodes(thr, gt) AS TABLE
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        CAST(n_runs AS BIGINT)                                            AS n_runs,
        CAST(n_parse AS BIGINT)                                           AS n_parse,
        CAST(n_success
            + CASE WHEN score_1 >= thr THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= thr THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= thr THEN 1 ELSE 0 END AS BIGINT) AS n_success,
        CAST(n_failure
            + CASE WHEN score_1 < thr THEN 1 ELSE 0 END
            + CASE WHEN score_2 < thr THEN 1 ELSE 0 END
            + CASE WHEN score_3 < thr THEN 1 ELSE 0 END AS BIGINT) AS n_failure,
        CAST(n_uncertain AS BIGINT)                                       AS n_uncertain,
        CAST(CASE WHEN thr IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE whole
    UNION ALL
    SELECT judge, condition, episode_id,
        CAST(sum(n_runs) AS BIGINT)                                       AS n_runs,
        CAST(sum(n_parse) AS BIGINT)                                      AS n_parse,
        CAST(sum(n_success
            + CASE WHEN score_1 >= thr THEN 1 ELSE 0 END
            + CASE WHEN score_2 >= thr THEN 1 ELSE 0 END
            + CASE WHEN score_3 >= thr THEN 1 ELSE 0 END) AS BIGINT) AS n_success,
        CAST(sum(n_failure
            + CASE WHEN score_1 < thr THEN 1 ELSE 0 END
            + CASE WHEN score_2 < thr THEN 1 ELSE 0 END
            + CASE WHEN score_3 < thr THEN 1 ELSE 0 END) AS BIGINT) AS n_failure,
        CAST(sum(n_uncertain) AS BIGINT)                                  AS n_uncertain,
        CAST(sum(CASE WHEN thr IS NULL THEN CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
            + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END ELSE 0 END) AS BIGINT) AS n_unscored
    FROM verdict_runs
    WHERE NOT whole
    GROUP BY judge, condition, episode_id
)
SELECT
    p.judge, p.condition, p.episode_id,
    p.n_runs, p.n_parse, p.n_success, p.n_failure, p.n_uncertain, p.n_unscored,
    p.n_success + p.n_failure + p.n_uncertain AS n_valid,
    CASE
        WHEN p.n_success > p.n_failure AND p.n_success > p.n_uncertain THEN 'success'
        WHEN p.n_failure > p.n_success AND p.n_failure > p.n_uncertain THEN 'failure'
        ELSE 'uncertain'
    END AS majority,
    e.task_id, e.agent, e.source,
    CASE gt WHEN 'verifier' THEN c.gt_pass
            WHEN 'human' THEN h.pass
            ELSE coalesce(c.gt_pass, h.pass) END AS gt_pass,
    c.category
FROM per_episode p
LEFT JOIN episodes e USING (episode_id)
LEFT JOIN categories c USING (episode_id)
LEFT JOIN human_reference h USING (episode_id)
