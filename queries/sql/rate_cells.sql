-- name: RateCells
-- Per-task sufficient statistics of the corrected success rates (trustlake
-- rate): one row per (judge, condition, agent, task) over the episodes of
-- source $3 that have a task. Y is the ground truth (1 pass, 0 fail) from
-- reference $2 (see metric_episodes), f the judge's prediction: with $5
-- false, the majority verdict (success 1, failure 0; uncertain by policy
-- $4: 'failure' 0, 'success' 1, 'exclude' left out; score-only runs are
-- verdicts at threshold $1, and with $1 NULL unscored and left out); with
-- $5 true, the mean of the episode's run scores (episodes with no score
-- left out). Episodes with ground truth are labelled, the others
-- unlabelled. Columns: the labelled count and sums of Y, Y², f, f², Y·f;
-- the unlabelled count and sums of f, f²; the episodes left out.
WITH scores AS (
    SELECT judge, condition, episode_id,
        sum(coalesce(score_1, 0) + coalesce(score_2, 0) + coalesce(score_3, 0))
            / nullif(sum(CASE WHEN score_1 IS NOT NULL THEN 1 ELSE 0 END
                + CASE WHEN score_2 IS NOT NULL THEN 1 ELSE 0 END
                + CASE WHEN score_3 IS NOT NULL THEN 1 ELSE 0 END), 0) AS score
    FROM verdict_runs
    WHERE CAST($5 AS BOOLEAN)
    GROUP BY judge, condition, episode_id
),
ep AS (
    SELECT m.judge, m.condition, m.agent, m.task_id,
        CAST(m.gt_pass AS DOUBLE) AS y,
        CASE
            WHEN CAST($5 AS BOOLEAN) THEN s.score
            WHEN m.n_unscored > 0 THEN NULL
            WHEN m.majority = 'success' THEN 1.0
            WHEN m.majority = 'failure' THEN 0.0
            WHEN $4 = 'success' THEN 1.0
            WHEN $4 = 'failure' THEN 0.0
        END AS f
    FROM metric_episodes(CAST($1 AS DOUBLE), $2) m
    LEFT JOIN scores s USING (judge, condition, episode_id)
    WHERE m.source = $3 AND m.task_id IS NOT NULL
)
SELECT judge, condition, agent, task_id,
    CAST(count(*) FILTER (WHERE f IS NOT NULL AND y IS NOT NULL) AS BIGINT) AS n_labelled,
    coalesce(sum(y) FILTER (WHERE f IS NOT NULL), 0)                        AS sum_y,
    coalesce(sum(y * y) FILTER (WHERE f IS NOT NULL), 0)                    AS sum_yy,
    coalesce(sum(f) FILTER (WHERE y IS NOT NULL), 0)                        AS sum_f,
    coalesce(sum(f * f) FILTER (WHERE y IS NOT NULL), 0)                    AS sum_ff,
    coalesce(sum(y * f), 0)                                                 AS sum_yf,
    CAST(count(*) FILTER (WHERE f IS NOT NULL AND y IS NULL) AS BIGINT)     AS n_unlabelled,
    coalesce(sum(f) FILTER (WHERE y IS NULL), 0)                            AS sum_f_u,
    coalesce(sum(f * f) FILTER (WHERE y IS NULL), 0)                        AS sum_ff_u,
    CAST(count(*) FILTER (WHERE f IS NULL) AS BIGINT)                       AS n_left_out
FROM ep
GROUP BY judge, condition, agent, task_id
ORDER BY judge, condition, agent, task_id
