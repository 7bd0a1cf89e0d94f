-- name: MetricsJudgeConditions
-- Every (judge, condition) with verdicts, its judged episodes and those
-- with a score-only run (verdict NULL) left unscored: all of them when the
-- threshold $1 is NULL, none otherwise (as metric_episodes($1) counts
-- n_unscored).
WITH per_episode AS (
-- per_episode:begin
    SELECT judge, condition, episode_id, count_if(verdict IS NULL) AS n_score_only
    FROM verdicts
    GROUP BY judge, condition, episode_id
-- per_episode:end
)
SELECT judge, condition, count(*) AS n_episodes, count_if(n_score_only > 0 AND CAST($1 AS DOUBLE) IS NULL) AS n_unscored
FROM per_episode
GROUP BY ALL
ORDER BY ALL
