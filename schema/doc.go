// Package schema defines the lake's row types, their enums and validation.
//
// It does no I/O and imports only the standard library: every other package
// (lake, ingest, queries, tasks, trust) speaks in these types. A row type's
// Parquet layout is given by its struct tags; partition columns are tagged
// `parquet:"-"` because they live in the hive path, not in the file.
package schema
