-- name: TrustScope
-- trust_scope holds the benchmarks the Trust* queries read; TrustScopeAdd
-- fills it.
CREATE OR REPLACE TEMP TABLE trust_scope (benchmark VARCHAR PRIMARY KEY)
