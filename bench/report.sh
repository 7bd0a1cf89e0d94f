#!/usr/bin/env bash
# Report benchmark (issue: nightly report). The 1,000,000-verdict lake of
# bench/metrics.sh (150 tasks, 3 judges and a reward model × 4 conditions ×
# 3 runs), timed as whole processes side by side in the same run:
#   trustlake report --out DIR --threshold 0.5   every section the lake has:
#       judges × conditions with strata (category, hardness, source), claim
#       sway per judge, reward-model ROC and cross-fitted thresholds, lake
#       check, verifier health; 2000 resamples
#   trustlake metrics --json --threshold 0.5     the baseline (goal: report
#       within 3x of it)
#   trustlake metrics --json --threshold 0.5 --by hardness --by category
#       --by source                              the same metrics the report
#       shows, for the breakdown
# Reports the median wall and CPU (user + system) times, their ratios,
# peak RSS and the size of report.html (it grows with judges × conditions,
# not with rows).
# BASELINE=path/to/an/older/trustlake adds that build's report to every
# round (interleaved: baseline, candidate, ...), prints its times and the
# speedup, and checks that both report.json carry the same figures (every
# section but provenance and health).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
REPS=${REPS:-5}
source bench/lib.sh
bench_init report

"$T" gen --out "$W/gen" --no-episodes --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
export TRUSTLAKE_LAKE="$W/lake"
"$T" ingest episodes "$W/gen/episodes" >/dev/null
"$T" ingest verdicts "$W/gen/verdicts/verdicts.jsonl" >/dev/null
"$T" sql -f csv "SELECT count(*) AS verdict_rows, count(DISTINCT episode_id) AS episodes, count(DISTINCT judge) AS judges,
  count(DISTINCT condition) AS conditions FROM verdicts"

ours=(); base=(); ours_cpu=(); base_cpu=(); ours_kb=0; base_kb=0; strata=(); strata_cpu=(); old=(); old_cpu=()
for i in $(seq "$REPS"); do
  read -r s kb c < <(measure_cpu strata "$T" metrics --json --threshold 0.5 --bootstrap 2000 --by hardness --by category --by source)
  strata+=("$s"); strata_cpu+=("$c")
  if [ -n "${BASELINE:-}" ]; then
    read -r s kb c < <(measure_cpu old "$BASELINE" report --out "$W/report-old" --threshold 0.5 --bootstrap 2000)
    old+=("$s"); old_cpu+=("$c")
  fi
  read -r s kb c < <(measure_cpu report "$T" report --out "$W/report" --threshold 0.5 --bootstrap 2000)
  ours+=("$s"); ours_cpu+=("$c"); [ "$kb" -gt "$ours_kb" ] && ours_kb=$kb
  read -r s kb c < <(measure_cpu metrics "$T" metrics --json --threshold 0.5 --bootstrap 2000)
  base+=("$s"); base_cpu+=("$c"); [ "$kb" -gt "$base_kb" ] && base_kb=$kb
done
mo=$(median "${ours[@]}"); mb=$(median "${base[@]}"); co=$(median "${ours_cpu[@]}"); cb=$(median "${base_cpu[@]}")
mst=$(median "${strata[@]}"); cst=$(median "${strata_cpu[@]}")
html=$(wc -c < "$W/report/report.html")
awk -v mo="$mo" -v mb="$mb" -v co="$co" -v cb="$cb" -v ko="$ours_kb" -v kb="$base_kb" -v h="$html" -v ms="$mst" -v cs="$cst" 'BEGIN {
  printf "trustlake report:         %.2f s (cpu %.2f s)  peak %4.0f MiB  report.html %.0f KiB\n", mo, co, ko/1024, h/1024
  printf "trustlake metrics --json: %.2f s (cpu %.2f s)  peak %4.0f MiB\n", mb, cb, kb/1024
  printf "metrics --json with strata: %.2f s (cpu %.2f s)\n", ms, cs
  printf "ratio report / metrics: %.2fx wall, %.2fx cpu  (goal 3x; median of runs)\n", mo/mb, co/cb
  printf "ratio report / metrics with the same strata: %.2fx wall, %.2fx cpu\n", mo/ms, co/cs
}'
echo "runs (s): report ${ours[*]} | metrics ${base[*]} | metrics with strata ${strata[*]}"
if [ -n "${BASELINE:-}" ]; then
  mold=$(median "${old[@]}"); cold=$(median "${old_cpu[@]}")
  awk -v mo="$mo" -v co="$co" -v ml="$mold" -v cl="$cold" -v mb="$mb" -v cb="$cb" 'BEGIN {
    printf "baseline report (%s): %.2f s (cpu %.2f s) = %.2fx wall, %.2fx cpu of metrics --json; this build %.2fx faster wall, %.2fx less cpu\n", ENVIRON["BASELINE"], ml, cl, ml/mb, cl/cb, ml/mo, cl/co
  }'
  echo "runs (s): baseline report ${old[*]}"
  # Every section but provenance (time, version, lake path) and health
  # (an older build may not know a newer lake layout's tables), through
  # DuckDB's JSON reader.
  figures() {
    "$T" sql -f csv "SELECT md5(string_agg(CAST(json_extract(content, '$.' || k) AS VARCHAR), '|' ORDER BY k)) AS figures
      FROM read_text('$1'), unnest(['judges', 'strata', 'claim_sway', 'reward_models', 'checklists', 'trust', 'warnings', 'summary', 'gates']) AS t(k)" | tail -1
  }
  if [ "$(figures "$W/report/report.json")" = "$(figures "$W/report-old/report.json")" ]; then
    echo "report.json: the same figures as the baseline's (every section but provenance and health)"
  else
    echo "report.json: figures DIFFER from the baseline's" >&2
    exit 1
  fi
fi
