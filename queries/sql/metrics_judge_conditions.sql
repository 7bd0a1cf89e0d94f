-- name: MetricsJudgeConditions
-- Every (judge, condition) with runs, its judged episodes and those with a
-- score-only run (verdict NULL: counted in n_runs and in no verdict column
-- of verdict_runs) left unscored: all of them when the threshold $1 is
-- NULL, none otherwise (as metric_episodes($1) counts n_unscored).
-- Whole rows of verdict_runs are taken as they are, the rest summed per
-- episode.
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        CAST(n_runs - n_parse - n_success - n_failure - n_uncertain AS BIGINT) AS n_score_only
    FROM verdict_runs
    WHERE whole
    UNION ALL
    SELECT judge, condition, episode_id,
        CAST(sum(n_runs - n_parse - n_success - n_failure - n_uncertain) AS BIGINT) AS n_score_only
    FROM verdict_runs
    WHERE NOT whole
    GROUP BY judge, condition, episode_id
)
SELECT judge, condition, count(*) AS n_episodes, count_if(n_score_only > 0 AND CAST($1 AS DOUBLE) IS NULL) AS n_unscored
FROM per_episode
GROUP BY ALL
ORDER BY ALL
