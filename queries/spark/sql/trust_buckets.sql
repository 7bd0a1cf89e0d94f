-- name: TrustBuckets
-- Spark: the same statement as queries/sql/trust_buckets.sql. The number
-- of buckets of trust_episodes.
SELECT coalesce(max(bucket) + 1, 0) FROM trust_episodes
