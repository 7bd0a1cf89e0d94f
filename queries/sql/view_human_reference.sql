-- name: ViewHumanReference
-- human_reference gives each episode with human pass/fail judgments
-- (ground_truth rows with source 'human', one per annotator) their counts
-- and the majority: pass when more annotators say pass than fail, fail in
-- the reverse case, NULL on a tie (tie = true).
-- Plain SQL that Spark runs too (queries/spark).
CREATE OR REPLACE TEMPORARY VIEW human_reference AS
SELECT
    episode_id,
    count(*)               AS n_annotators,
    count_if(pass)         AS n_pass,
    count_if(NOT pass)     AS n_fail,
    CASE WHEN count_if(pass) > count_if(NOT pass) THEN true
         WHEN count_if(pass) < count_if(NOT pass) THEN false END AS pass,
    count_if(pass) = count_if(NOT pass) AS tie
FROM ground_truth
WHERE source = 'human'
GROUP BY episode_id
