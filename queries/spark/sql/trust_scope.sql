-- name: TrustScope
-- Spark dialect of queries/sql/trust_scope.sql and trust_scope_add.sql:
-- trust_scope is a view of the benchmarks the Trust* queries read, those
-- of results whose benchmark is in $1 (an array; empty means every one).
CREATE OR REPLACE TEMPORARY VIEW trust_scope AS
SELECT DISTINCT benchmark FROM results WHERE size($1) = 0 OR array_contains($1, benchmark)
