#!/usr/bin/env bash
# Spark benchmark (issue 13): `trustlake metrics` with the SQL on a real
# Spark cluster (--engine sc://…: a standalone master, two 1-core 1 GiB
# workers and a Connect server on this machine) against the embedded
# DuckDB, on generated lakes of 1M and 10M verdict rows
# (ROWS="1000000 10000000"), timed as whole processes side by side, REPS
# each (median). Spark's fixed costs are stated separately: starting the
# cluster (once), and a metrics run on a lake of 1,000 rows (connect,
# read the manifest, define the views, plan and run the queries).
# Every Spark output must equal the embedded one byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TRUSTLAKE_SPARK_REMOTE:-}" ]; then
  exec go run ./internal/sparktest/sparkcluster -- bash bench/spark.sh
fi
ROWS=${ROWS:-1000000 10000000}
REPS=${REPS:-3}
source bench/lib.sh
bench_init spark
E=$TRUSTLAKE_SPARK_REMOTE
ARGS=(metrics --json --by category --by source --threshold 0.5 --bootstrap 2000)

lake_of() { # lake_of N: generate and ingest N verdict rows into $W/lake-N
  local n=$1
  "$T" gen --out "$W/gen-$n" --no-episodes --single-verdicts-file --verdict-rows "$n" >/dev/null
  "$T" --lake "$W/lake-$n" ingest episodes "$W/gen-$n/episodes" >/dev/null
  "$T" --lake "$W/lake-$n" ingest verdicts "$W/gen-$n/verdicts/verdicts.jsonl" >/dev/null
  rm -rf "$W/gen-$n"
}

lake_of 1000
"$T" --lake "$W/lake-1000" "${ARGS[@]}" --engine "$E" >/dev/null # warm the JVMs once
fixed=()
for i in $(seq "$REPS"); do
  read -r s _ < <(measure fixed "$T" --lake "$W/lake-1000" "${ARGS[@]}" --engine "$E")
  fixed+=("$s")
done
mf=$(median "${fixed[@]}")
printf "spark fixed cost: metrics on 1,000 rows %.2f s (median of %s)\n" "$mf" "$REPS"

printf "%12s %12s %12s %8s\n" "verdicts" "duckdb (s)" "spark (s)" "spark/duckdb"
declare -A dk sk
for n in $ROWS; do
  lake_of "$n"
  "$T" --lake "$W/lake-$n" "${ARGS[@]}" >"$W/duck.json"
  "$T" --lake "$W/lake-$n" "${ARGS[@]}" --engine "$E" >"$W/spark.json"
  cmp -s "$W/duck.json" "$W/spark.json" || { echo "spark output differs from duckdb at $n rows" >&2; exit 1; }
  d=(); s=()
  for i in $(seq "$REPS"); do
    read -r x _ < <(measure duck "$T" --lake "$W/lake-$n" "${ARGS[@]}"); d+=("$x")
    read -r x _ < <(measure spark "$T" --lake "$W/lake-$n" "${ARGS[@]}" --engine "$E"); s+=("$x")
  done
  dk[$n]=$(median "${d[@]}"); sk[$n]=$(median "${s[@]}")
  awk -v n="$n" -v d="${dk[$n]}" -v s="${sk[$n]}" 'BEGIN { printf "%12d %12.2f %12.2f %7.1fx\n", n, d, s, s/d }'
  echo "  runs (s): duckdb ${d[*]} | spark ${s[*]}"
  rm -rf "$W/lake-$n"
done
set -- $ROWS
if [ $# -ge 2 ]; then
  awk -v a="$1" -v b="$2" -v d1="${dk[$1]}" -v d2="${dk[$2]}" -v s1="${sk[$1]}" -v s2="${sk[$2]}" -v f="$mf" 'BEGIN {
    printf "growth %d -> %d rows: duckdb %.1fx, spark %.1fx (spark minus its fixed cost %.1fx)\n", a, b, d2/d1, s2/s1, (s2-f)/(s1-f)
  }'
fi
echo "outputs: spark == duckdb byte for byte at every size"
