-- FPR of each judge on each evidence condition: the share of ground-truth
-- failures among natural episodes that the judge's majority verdict accepts,
-- with its Wilson 95% interval. The rules of `trustlake metrics`: the
-- majority is the verdict with strictly more runs than each other one,
-- parse errors are dropped, a tie is 'uncertain' and counts as a rejection;
-- judge x condition cells without a single verdict (reward models, which
-- record scores) are left out.
WITH per_episode AS (
    SELECT judge, condition, episode_id,
        count_if(verdict = 'success')   AS n_success,
        count_if(verdict = 'failure')   AS n_failure,
        count_if(verdict = 'uncertain') AS n_uncertain
    FROM verdicts
    GROUP BY ALL
),
verdict_cells AS (  -- judge x condition cells with verdicts, not scores only
    SELECT judge, condition
    FROM per_episode
    GROUP BY ALL
    HAVING sum(n_success + n_failure + n_uncertain) > 0
),
negatives AS (
    SELECT p.judge, p.condition,
        p.n_success > p.n_failure AND p.n_success > p.n_uncertain AS accepted
    FROM per_episode p
    JOIN verdict_cells USING (judge, condition)
    JOIN categories c USING (episode_id)
    JOIN episodes e USING (episode_id)
    WHERE NOT c.gt_pass AND e.source = 'natural'
)
SELECT judge, condition,
    count(*)                                   AS negatives,
    count_if(accepted)::BIGINT                 AS accepted,
    count_if(accepted) / count(*)              AS fpr,
    wilson_lo(count_if(accepted), count(*))    AS fpr_lo,
    wilson_hi(count_if(accepted), count(*))    AS fpr_hi
FROM negatives
GROUP BY ALL
ORDER BY judge, condition
