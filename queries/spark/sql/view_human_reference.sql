-- name: ViewHumanReference
-- Spark dialect of queries/sql/view_human_reference.sql (a temporary view).
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
