-- name: SessionConf
-- Session settings that make Spark read the lake as DuckDB does: UTC
-- timestamps, and partition values kept as strings (never inferred as
-- numbers or dates), percent-decoded.
SET spark.sql.session.timeZone = UTC;
SET spark.sql.sources.partitionColumnTypeInference.enabled = false
