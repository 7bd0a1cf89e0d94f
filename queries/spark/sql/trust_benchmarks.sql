-- name: TrustBenchmarks
-- Spark: the same statement as queries/sql/trust_benchmarks.sql.
-- Every benchmark of the results table with its number of recorded results.
SELECT benchmark, count(*) AS results
FROM results
GROUP BY benchmark
ORDER BY benchmark
