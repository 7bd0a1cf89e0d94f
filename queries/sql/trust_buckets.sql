-- name: TrustBuckets
-- The number of buckets of trust_episodes.
SELECT coalesce(max(bucket) + 1, 0) FROM trust_episodes
