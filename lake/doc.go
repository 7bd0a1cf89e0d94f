// Package lake owns trustlake's on-disk layout: hive-partitioned Parquet
// tables, the manifest that makes writes atomic, the single-writer lock and
// natural-key dedupe.
//
// Layout under the lake root:
//
//	_manifest/manifest.json   the committed state: every live data file with
//	                          its table, partition, row count, size and sha256
//	_manifest/lock            flock(2) held by the one writer
//	_keys/part-<uuid>.keys    key index (package keyindex) of part-<uuid>.parquet:
//	                          per row, in row order, the 128-bit natural-key
//	                          hash and the 64-bit content hash (xxh3), 24 bytes
//	episodes/agent=<a>/part-<uuid>.parquet
//	actions/agent=<a>/part-<uuid>.parquet
//	ground_truth/part-<uuid>.parquet
//	labels/part-<uuid>.parquet
//	verdicts/judge=<j>/condition=<c>/part-<uuid>.parquet
//	run_counts/judge=<j>/condition=<c>/part-<uuid>.counts.parquet
//	                          the companion of that verdicts file, committed with
//	                          it (companion.go; its rows: package lake/runcounts)
//	results/benchmark=<b>/part-<uuid>.parquet
//	trust/benchmark=<b>/part-<uuid>.parquet
//	selftests/part-<uuid>.parquet
//
// Every table is declared once, in tables.go; its partition and key columns
// and its content hash derive from the row type's struct tags (rowtype.go).
// A Writer copies new rows into batches per partition (shred.go); each
// data file is written in a goroutine of its own by parquet-go's
// GenericWriter, which hashes the rows for the key index as it goes. The
// format is described for users in docs/lake-format.md.
//
// Partition values are percent-encoded the way DuckDB writes them (every
// byte outside [A-Za-z0-9._-] becomes %XX), so DuckDB, Spark or Trino read
// the folders with hive partitioning and get the exact value back. Partition
// columns are not stored inside the files.
//
// A commit writes each new file as _staging/part-<uuid>.parquet.tmp, fsyncs it,
// renames it to .parquet, fsyncs the folder, and only then replaces
// manifest.json by an atomic rename. Key index files are written and renamed
// the same way, and the manifest entry of each data file names its index
// with size and sha256. A writer dedupes against the key indexes of the
// partitions it touches, never against the rows; files written before the
// index existed get one the first time a writer touches their partition.
// The manifest is the truth: readers (package queries) read exactly the
// files it lists, so a crash at any
// moment leaves the old or the new state, never a mix. Files that a crashed
// writer left behind are not in the manifest; the next writer removes them
// and `lake check` lists them. Files superseded by --replace or compact are
// moved out of the table folders at commit, to _superseded/<same path>,
// where they stay for a grace period (Options.TombstoneGrace) and are then
// deleted; partition folders left empty are removed.
//
// What a folder reader (DuckDB read_parquet('lake/verdicts/**/*.parquet'),
// Spark, Trino) may rely on: every *.parquet file under a table folder is a
// complete file written by trustlake (writers write in _staging/ and
// rename into the table folder at commit); superseded files are never
// under a table folder; the partition
// folders are hive-style (col=percent-encoded value). It may not rely on
// seeing exactly one commit: during a commit (between the renames of its
// files and the manifest write) and after a writer crashed in that window
// (until the next writer removes the leftovers), a folder may hold files
// that are not in the manifest. Only _manifest/manifest.json names the
// committed state exactly; trustlake's own readers read only the files it
// lists and refuse a file whose size differs from it.
package lake
