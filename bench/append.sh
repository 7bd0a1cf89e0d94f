#!/usr/bin/env bash
# Append benchmark (issue 14: append cost independent of lake size). Three
# batches of 1,000,008 verdict rows (one `trustlake gen` run split in three,
# disjoint keys, the same judge × condition partitions). Side by side in the
# same run: batch C ingested into an empty lake, and batch C ingested into a
# lake that already holds A and B (2M rows in the same partitions). Reports
# both times, the ratio (goal ≤ 1.2×) and peak RSS. With the key index an
# append reads 24 bytes per stored row of the partitions it touches, never
# the rows themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000008}
REPS=${REPS:-3}
source bench/lib.sh
bench_init append

"$T" gen --out "$W/gen" --verdicts-only --single-verdicts-file --verdict-rows $((3 * ROWS)) >/dev/null
split -l "$ROWS" -d "$W/gen/verdicts/verdicts.jsonl" "$W/batch."
rm -rf "$W/gen"
"$T" --lake "$W/base" ingest verdicts "$W/batch.00" >/dev/null
"$T" --lake "$W/base" ingest verdicts "$W/batch.01" >/dev/null
echo "lake: $("$T" --lake "$W/base" sql -f csv "SELECT count(*) FROM verdicts" | tail -1) stored rows; appending $(wc -l < "$W/batch.02")"

empty=(); full=(); empty_cpu=(); full_cpu=(); empty_kb=0; full_kb=0
for i in $(seq "$REPS"); do
  rm -rf "$W/empty" "$W/full"; cp -r "$W/base" "$W/full"
  read -r s kb c < <(measure_cpu empty "$T" --lake "$W/empty" ingest verdicts "$W/batch.02")
  empty+=("$s"); empty_cpu+=("$c"); [ "$kb" -gt "$empty_kb" ] && empty_kb=$kb
  read -r s kb c < <(measure_cpu full "$T" --lake "$W/full" ingest verdicts "$W/batch.02")
  full+=("$s"); full_cpu+=("$c"); [ "$kb" -gt "$full_kb" ] && full_kb=$kb
done
me=$(median "${empty[@]}"); mf=$(median "${full[@]}"); ce=$(median "${empty_cpu[@]}"); cf=$(median "${full_cpu[@]}")
awk -v me="$me" -v mf="$mf" -v ce="$ce" -v cf="$cf" -v ke="$empty_kb" -v kf="$full_kb" 'BEGIN {
  printf "append into an empty lake:   %.2f s (cpu %.2f s)  peak %4.0f MiB\n", me, ce, ke/1024
  printf "append into a 2M-row lake:   %.2f s (cpu %.2f s)  peak %4.0f MiB\n", mf, cf, kf/1024
  printf "ratio 2M-row lake / empty lake: %.2fx wall, %.2fx cpu  (goal <= 1.2x; median of runs)\n", mf/me, cf/ce
}'
echo "runs (s): empty ${empty[*]} | 2M ${full[*]}"
