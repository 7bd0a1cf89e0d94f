#!/usr/bin/env bash
# Metrics benchmark (issue: judge metrics). A lake with 1,000,000 verdict
# rows from `trustlake gen` (150 tasks, 3 judges × 4 conditions × 3 runs,
# the reward model scored with --threshold 0.5 so every row counts), timed
# as whole processes side by side in the same run:
#   trustlake metrics --json --by category --by source --threshold 0.5 (2000 resamples)
#   the per-episode scan: the least work that reads the same columns,
#   verdicts grouped per judge, condition and episode (then summed so that
#   the output is small)
# Reports the median times, their ratio (goal: within 2x) and peak RSS (GNU
# time), and the CPU seconds of both.
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
  count(DISTINCT condition) AS conditions, max(run) AS runs FROM verdicts"

SCAN="SELECT judge, condition, sum(n), sum(s) FROM (SELECT judge, condition, episode_id, count(*) AS n, count_if(verdict = 'success') AS s FROM verdicts GROUP BY ALL) GROUP BY ALL"
ours=(); scan=(); ours_cpu=(); scan_cpu=(); ours_kb=0; scan_kb=0
for i in $(seq "$REPS"); do
  read -r s kb c < <(measure_cpu ours "$T" metrics --json --by category --by source --threshold 0.5 --bootstrap 2000)
  ours+=("$s"); ours_cpu+=("$c"); [ "$kb" -gt "$ours_kb" ] && ours_kb=$kb
  read -r s kb c < <(measure_cpu scan "$T" sql "$SCAN")
  scan+=("$s"); scan_cpu+=("$c"); [ "$kb" -gt "$scan_kb" ] && scan_kb=$kb
done
mo=$(median "${ours[@]}"); ms=$(median "${scan[@]}"); co=$(median "${ours_cpu[@]}"); cs=$(median "${scan_cpu[@]}")
awk -v mo="$mo" -v ms="$ms" -v co="$co" -v cs="$cs" -v ko="$ours_kb" -v ks="$scan_kb" 'BEGIN {
  printf "trustlake metrics (2000 resamples): %.2f s (cpu %.2f s)  peak %4.0f MiB\n", mo, co, ko/1024
  printf "per-episode scan (sql):            %.2f s (cpu %.2f s)  peak %4.0f MiB\n", ms, cs, ks/1024
  printf "ratio metrics / scan: %.1fx wall, %.1fx cpu  (goal 2x; median of runs)\n", mo/ms, co/cs
}'
echo "runs (s): metrics ${ours[*]} | scan ${scan[*]}"
