// Package schema defines the lake's row types, their enums and validation.
//
// It does no I/O and imports only the standard library: every other package
// (lake, ingest, queries, tasks, trust) speaks in these types. A row type's
// Parquet layout is given by its struct tags; partition columns are tagged
// `parquet:"-"` because they live in the hive path, not in the file.
//
// The `lake` tag declares what package lake derives for each table (see
// lake/tables.go, where every table is registered once): `key` marks the
// natural key columns (in declaration order), `partition=COL` a hive
// partition column, `nohash` a stored field left out of the content hash
// (provenance, the folder an episode was read from), `freetext` a string
// column of free text (messages, raw replies, JSON blobs) written without
// min/max statistics, which no query filters on. Keys and content hashes
// are computed from these tags; no row type writes them by hand.
package schema
