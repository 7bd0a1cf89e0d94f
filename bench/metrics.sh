#!/usr/bin/env bash
# Metrics benchmark (issues: judge metrics; lake at scale). A lake with
# 1,000,000 verdict rows from `trustlake gen` (150 tasks, 3 judges × 4
# conditions × 3 runs, the reward model scored with --threshold 0.5 so every
# row counts), timed as whole processes side by side, interleaved, in the
# same run:
#   metrics   trustlake metrics --json --by category --by source --threshold 0.5
#             (2000 resamples), reading the run_counts table
#   no-table  the same command on a copy of the lake whose manifest lists no
#             run_counts files (a lake written before the table: metrics
#             count the verdicts themselves); its output must be identical
#   scan      the per-episode scan (EPISODE_SCAN in bench/lib.sh): the
#             least work that reads the same columns
# Reports the median wall and CPU seconds (user + system) of each, the
# ratio metrics / scan (goal: within 2.5x) and peak RSS (GNU time).
# BASELINE=path/to/an/older/trustlake adds that build's metrics on the same
# lake to every round and prints its figures too; its output must be
# identical (the bootstrap is exact: same draws, same sums).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
REPS=${REPS:-5}
source bench/lib.sh
bench_init metrics

"$T" gen --out "$W/gen" --no-episodes --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
export TRUSTLAKE_LAKE="$W/lake"
"$T" ingest episodes "$W/gen/episodes" >/dev/null
"$T" ingest verdicts "$W/gen/verdicts/verdicts.jsonl" >/dev/null
"$T" sql -f csv "SELECT count(*) AS verdict_rows, count(DISTINCT episode_id) AS episodes,
  (SELECT count(DISTINCT task_id) FROM episodes) AS tasks, count(DISTINCT judge) AS judges,
  count(DISTINCT condition) AS conditions, max(run) AS runs,
  (SELECT count(*) FROM run_counts) AS run_count_rows FROM verdicts"
# The same lake as written before run_counts existed.
cp -r "$W/lake" "$W/old"
python3 - "$W/old/_manifest/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["files"] = [f for f in m["files"] if f["table"] != "run_counts"]
json.dump(m, open(sys.argv[1], "w"))
PY

M=(metrics --json --by category --by source --threshold 0.5 --bootstrap 2000)
"$T" "${M[@]}" > "$W/with.json"
"$T" --lake "$W/old" "${M[@]}" > "$W/without.json"
cmp -s "$W/with.json" "$W/without.json" && echo "metrics --json: identical with and without run_counts ($(wc -c < "$W/with.json") bytes)" \
  || { echo "metrics --json differs with and without run_counts" >&2; exit 1; }
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE" "${M[@]}" > "$W/baseline.json"
  cmp -s "$W/with.json" "$W/baseline.json" && echo "metrics --json: identical to the baseline's" \
    || { echo "metrics --json differs from the baseline's ($BASELINE)" >&2; exit 1; }
fi

declare -A wall cpu kb
run() { # run LABEL CMD...: one measured run, appended to wall[LABEL] and cpu[LABEL]
  local label=$1; shift
  read -r s k c < <(measure_cpu "$label" "$@")
  wall[$label]+="$s "; cpu[$label]+="$c "
  [ "$k" -gt "${kb[$label]:-0}" ] && kb[$label]=$k
  return 0
}
labels=(metrics no-table scan)
[ -n "${BASELINE:-}" ] && labels+=(baseline)
for i in $(seq "$REPS"); do
  run metrics "$T" "${M[@]}"
  run no-table "$T" --lake "$W/old" "${M[@]}"
  run scan "$T" sql "$EPISODE_SCAN"
  [ -n "${BASELINE:-}" ] && run baseline "$BASELINE" "${M[@]}"
done
for l in "${labels[@]}"; do
  # shellcheck disable=SC2086
  printf "%-9s wall %.2f s  cpu %.2f s  peak %4.0f MiB   (runs: %s)\n" "$l" "$(median ${wall[$l]})" "$(median ${cpu[$l]})" \
    "$(awk -v k="${kb[$l]}" 'BEGIN{print k/1024}')" "${wall[$l]}"
done
# shellcheck disable=SC2086
awk -v mo="$(median ${wall[metrics]})" -v ms="$(median ${wall[scan]})" -v co="$(median ${cpu[metrics]})" -v cs="$(median ${cpu[scan]})" \
    -v no="$(median ${wall[no-table]})" -v cn="$(median ${cpu[no-table]})" 'BEGIN {
  printf "ratio metrics / scan: %.1fx wall, %.1fx cpu  (goal 2.5x; median of runs)\n", mo/ms, co/cs
  printf "without run_counts / with: %.2fx wall, %.2fx cpu\n", no/mo, cn/co
}'
if [ -n "${BASELINE:-}" ]; then
  # shellcheck disable=SC2086
  awk -v mo="$(median ${wall[metrics]})" -v mb="$(median ${wall[baseline]})" -v co="$(median ${cpu[metrics]})" -v cb="$(median ${cpu[baseline]})" 'BEGIN {
    printf "baseline / metrics: %.2fx wall, %.2fx cpu\n", mb/mo, cb/co }'
fi
