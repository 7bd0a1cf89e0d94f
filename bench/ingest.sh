#!/usr/bin/env bash
# Ingest benchmark (issue: lake foundation). 1,000,000 verdict rows from one
# JSONL file made by `trustlake gen`, ingested with full validation, natural-
# key dedupe and an atomic commit, side by side in the same run with DuckDB's
# own COPY ... PARTITION_BY ... COMPRESSION zstd on the same file (no
# validation, no dedupe, no key index, no commit), run by the
# same binary. Reports rows/s, the ratio, CPU seconds and peak RSS (GNU
# time). BASELINE=path/to/an/older/trustlake adds that build to every
# round (ours, baseline, DuckDB, interleaved) and prints its figures too.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
REPS=${REPS:-3}
source bench/lib.sh
bench_init ingest

"$T" gen --out "$W/gen" --verdicts-only --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
F="$W/gen/verdicts/verdicts.jsonl"
# The baseline is DuckDB itself, linked the same way (trustlake sql only reads).
CGO_ENABLED=1 go build -tags duckdb_arrow -o "$W/duckcopy" ./bench/duckcopy
N=$(wc -l < "$F")
echo "input: $N verdict rows, $(du -h "$F" | cut -f1) in one JSONL file"


ours=(); duck=(); ours_cpu=(); duck_cpu=(); ours_kb=0; duck_kb=0
base=(); base_cpu=(); base_kb=0
for i in $(seq "$REPS"); do
  rm -rf "$W/lake" "$W/duck" "$W/base"
  read -r s kb c < <(measure_cpu ours "$T" --lake "$W/lake" ingest verdicts "$F")
  ours+=("$s"); ours_cpu+=("$c"); [ "$kb" -gt "$ours_kb" ] && ours_kb=$kb
  if [ -n "${BASELINE:-}" ]; then
    read -r s kb c < <(measure_cpu base "$BASELINE" --lake "$W/base" ingest verdicts "$F")
    base+=("$s"); base_cpu+=("$c"); [ "$kb" -gt "$base_kb" ] && base_kb=$kb
  fi
  read -r s kb c < <(measure_cpu duck "$W/duckcopy" \
    "COPY (SELECT * FROM read_json('$F')) TO '$W/duck' (FORMAT parquet, PARTITION_BY (judge, condition), COMPRESSION zstd)")
  duck+=("$s"); duck_cpu+=("$c"); [ "$kb" -gt "$duck_kb" ] && duck_kb=$kb
done
mo=$(median "${ours[@]}"); md=$(median "${duck[@]}"); co=$(median "${ours_cpu[@]}"); cd=$(median "${duck_cpu[@]}")
awk -v n="$N" -v mo="$mo" -v md="$md" -v co="$co" -v cd="$cd" -v ko="$ours_kb" -v kd="$duck_kb" 'BEGIN {
  printf "trustlake ingest verdicts: %.2f s  %9.0f rows/s  peak %4.0f MiB\n", mo, n/mo, ko/1024
  printf "duckdb COPY PARTITION_BY:  %.2f s  %9.0f rows/s  peak %4.0f MiB\n", md, n/md, kd/1024
  printf "ratio (trustlake rows/s / duckdb rows/s): %.2f  (median of runs)\n", md/mo
  printf "cpu seconds: trustlake %.2f, duckdb %.2f (ratio %.2f)\n", co, cd, cd/co
}'
if [ -n "${BASELINE:-}" ]; then
  awk -v n="$N" -v mb="$(median "${base[@]}")" -v cb="$(median "${base_cpu[@]}")" -v mo="$mo" -v co="$co" -v md="$md" -v kb="$base_kb" 'BEGIN {
    printf "baseline %s: %.2f s  %9.0f rows/s  cpu %.2f s  peak %4.0f MiB; vs duckdb %.2f; trustlake vs baseline: wall %.2f×, cpu %.2f×\n", ENVIRON["BASELINE"], mb, n/mb, cb, kb/1024, md/mb, mb/mo, cb/co
  }'
  echo "runs (s): baseline ${base[*]} (cpu ${base_cpu[*]})"
fi
echo "runs (s): trustlake ${ours[*]} (cpu ${ours_cpu[*]}) | duckdb ${duck[*]} (cpu ${duck_cpu[*]})"
