-- name: HumanAgreement
-- Spark dialect of queries/sql/human_agreement.sql (explicit GROUP BY and
-- ORDER BY).
SELECT n_pass, n_fail, count(*) AS n,
    (SELECT count(DISTINCT annotator) FROM ground_truth WHERE source = 'human') AS annotators
FROM human_reference
GROUP BY n_pass, n_fail
ORDER BY n_pass, n_fail
