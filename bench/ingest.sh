#!/usr/bin/env bash
# Ingest benchmark (issue: lake foundation). 1,000,000 verdict rows from one
# JSONL file made by `trustlake gen`, ingested with full validation, natural-
# key dedupe and an atomic commit, side by side in the same run with DuckDB's
# own COPY ... PARTITION_BY on the same file (no validation), run by the
# same binary. Reports rows/s, the ratio and peak RSS (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TRUSTLAKE:-bin/trustlake}
ROWS=${ROWS:-1000000}
REPS=${REPS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-ingest.XXXXXX")
trap 'rm -rf "$W"' EXIT
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench needs GNU time (apt-get install time)" >&2; exit 2; }

"$T" gen --out "$W/gen" --verdicts-only --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
F="$W/gen/verdicts/verdicts.jsonl"
N=$(wc -l < "$F")
echo "input: $N verdict rows, $(du -h "$F" | cut -f1) in one JSONL file"

measure() { # label, then the command; prints "seconds maxrss_kb"
  local out="$W/time.$1"; shift
  "$TIME" -f "%e %M" -o "$out" "$@" >/dev/null
  cat "$out"
}

ours=(); duck=(); ours_kb=0; duck_kb=0
for i in $(seq "$REPS"); do
  rm -rf "$W/lake" "$W/duck"
  read -r s kb < <(measure ours "$T" --lake "$W/lake" ingest verdicts "$F")
  ours+=("$s"); [ "$kb" -gt "$ours_kb" ] && ours_kb=$kb
  read -r s kb < <(measure duck "$T" --lake "$W/lake" sql \
    "COPY (SELECT * FROM read_json('$F')) TO '$W/duck' (FORMAT parquet, PARTITION_BY (judge, condition))")
  duck+=("$s"); [ "$kb" -gt "$duck_kb" ] && duck_kb=$kb
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo=$(median "${ours[@]}"); md=$(median "${duck[@]}")
awk -v n="$N" -v mo="$mo" -v md="$md" -v ko="$ours_kb" -v kd="$duck_kb" 'BEGIN {
  printf "trustlake ingest verdicts: %.2f s  %9.0f rows/s  peak %4.0f MiB\n", mo, n/mo, ko/1024
  printf "duckdb COPY PARTITION_BY:  %.2f s  %9.0f rows/s  peak %4.0f MiB\n", md, n/md, kd/1024
  printf "ratio (trustlake rows/s / duckdb rows/s): %.2f  (median of runs)\n", md/mo
}'
echo "runs (s): trustlake ${ours[*]} | duckdb ${duck[*]}"
