-- name: HumanAgreement
-- Human pass/fail judgments per episode, grouped by their counts: how many
-- episodes have n_pass judgments of pass and n_fail of fail, and the
-- number of distinct annotators in the whole table (same on every row).
SELECT n_pass, n_fail, count(*) AS n,
    (SELECT count(DISTINCT annotator) FROM ground_truth WHERE source = 'human') AS annotators
FROM human_reference
GROUP BY ALL
ORDER BY ALL
