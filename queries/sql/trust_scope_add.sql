-- name: TrustScopeAdd
-- Adds benchmark $1 to trust_scope, or every benchmark of results when $1
-- is NULL.
INSERT OR IGNORE INTO trust_scope
SELECT DISTINCT benchmark
FROM results
WHERE CAST($1 AS VARCHAR) IS NULL OR benchmark = CAST($1 AS VARCHAR)
