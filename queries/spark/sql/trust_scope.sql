-- name: TrustScope
-- Spark dialect of queries/sql/trust_scope.sql and trust_scope_add.sql:
-- trust_scope is a view of the benchmarks the Trust* queries read, those
-- of results that satisfy $1 (TRUE, or benchmark IN (...)).
CREATE OR REPLACE TEMPORARY VIEW trust_scope AS
SELECT DISTINCT benchmark FROM results WHERE $1
