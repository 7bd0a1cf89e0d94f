-- name: ReportScoreCodes
-- Every judge of $1 with every condition of $2 (lists of strings) and its
-- code hash(judge, condition), as report_scores.sql returns it: the caller
-- maps the codes back, and two judge × conditions with one code are caught.
SELECT j AS judge, c AS condition, hash(j, c) AS code
FROM (SELECT unnest(CAST($1 AS VARCHAR[])) AS j) AS judges
CROSS JOIN (SELECT unnest(CAST($2 AS VARCHAR[])) AS c) AS conditions
