-- name: ViewHumanReference
-- human_reference gives each episode with human pass/fail judgments
-- (ground_truth rows with source 'human', one per annotator) their counts
-- and the majority: pass when more annotators say pass than fail, fail in
-- the reverse case, NULL on a tie (tie = true). A review's pass/fail
-- (table reviews, trustlake view --review) overrides the majority: the
-- latest review that sets one is the episode's human reference
-- (review_pass; tie false). Counts are the annotators'; an episode with
-- only a review counts it as one judgment.
-- Plain SQL that Spark runs too (queries/spark).
CREATE OR REPLACE TEMPORARY VIEW human_reference AS
WITH h AS (
    SELECT episode_id,
           count(*)           AS n_annotators,
           count_if(pass)     AS n_pass,
           count_if(NOT pass) AS n_fail
    FROM ground_truth
    WHERE source = 'human'
    GROUP BY episode_id
),
rv AS (
    SELECT episode_id, pass,
           row_number() OVER (PARTITION BY episode_id ORDER BY reviewed_at DESC, review_id DESC) AS rn
    FROM reviews
    WHERE pass IS NOT NULL
),
r AS (SELECT episode_id, pass FROM rv WHERE rn = 1)
SELECT
    coalesce(h.episode_id, r.episode_id) AS episode_id,
    coalesce(h.n_annotators, 1)          AS n_annotators,
    coalesce(h.n_pass, CASE WHEN r.pass THEN 1 ELSE 0 END)     AS n_pass,
    coalesce(h.n_fail, CASE WHEN r.pass THEN 0 ELSE 1 END)     AS n_fail,
    CASE WHEN r.episode_id IS NOT NULL THEN r.pass
         WHEN h.n_pass > h.n_fail THEN true
         WHEN h.n_pass < h.n_fail THEN false END AS pass,
    CASE WHEN r.episode_id IS NOT NULL THEN false ELSE h.n_pass = h.n_fail END AS tie,
    r.pass AS review_pass
FROM h
FULL OUTER JOIN r ON h.episode_id = r.episode_id
