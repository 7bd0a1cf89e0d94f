#!/usr/bin/env bash
# Metrics against its peers (issue 25): on the lake of bench/metrics.sh
# (1,000,000 verdict rows), `trustlake metrics --json --by category --by
# source --threshold 0.5 --bootstrap 2000` side by side, interleaved, with a
# polars and a pandas script (bench/metrics_peer.py) that read the same
# lake's Parquet files and compute less: FPR with a Wilson interval and 2000
# task-cluster bootstrap resamples per judge × condition × category. Before
# timing, the peers' false positives and negatives of every cell are checked
# equal to trustlake's. Goals: ≥ 2× faster than polars, ≥ 10× than pandas
# (wall, median of REPS rounds). The per-episode scan of metrics.sh runs in
# the same rounds: pandas / scan says how far under the scan 10× pandas
# would put metrics. Needs .venv with polars and pandas
# (make venv) and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
REPS=${REPS:-5}
PY=${PY:-.venv/bin/python}
source bench/lib.sh
bench_init metrics-peers
"$PY" -c 'import polars, pandas' || { echo "bench/metrics_peers.sh needs polars and pandas in $PY (make venv)" >&2; exit 2; }

"$T" gen --out "$W/gen" --no-episodes --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
export TRUSTLAKE_LAKE="$W/lake"
"$T" ingest episodes "$W/gen/episodes" >/dev/null
"$T" ingest verdicts "$W/gen/verdicts/verdicts.jsonl" >/dev/null

M=(metrics --json --by category --by source --threshold 0.5 --bootstrap 2000)
"$T" metrics --json --by category --threshold 0.5 --bootstrap 2000 > "$W/ours.json"
for lib in polars pandas; do
  "$PY" bench/metrics_peer.py "$lib" "$W/lake" 0.5 "$W/$lib.json"
  "$PY" - "$W/ours.json" "$W/$lib.json" "$lib" <<'PY'
import json, sys
ours = {(r["judge"], r["condition"], r["stratum"].get("category", "")): (r["fp"], r["n_neg"])
        for r in json.load(open(sys.argv[1]))["rows"] if r["stratum"]}
peer = json.load(open(sys.argv[2]))
bad = [r for r in peer if ours.get((r["judge"], r["condition"], r["category"])) != (r["fp"], r["n_neg"])]
if bad or not peer:
    sys.exit(f"{sys.argv[3]}: {len(bad)} of {len(peer)} cells differ from trustlake's, e.g. {bad[:1]}")
print(f"{sys.argv[3]}: the false positives and negatives of all {len(peer)} cells equal trustlake's")
PY
done

declare -A wall cpu
labels=(metrics polars pandas scan)
for i in $(seq "$REPS"); do
  for l in "${labels[@]}"; do
    case $l in
      metrics) read -r s _ c < <(measure_cpu "$l" "$T" "${M[@]}") ;;
      scan) read -r s _ c < <(measure_cpu "$l" "$T" sql "$EPISODE_SCAN") ;;
      *) read -r s _ c < <(measure_cpu "$l" "$PY" bench/metrics_peer.py "$l" "$W/lake" 0.5 "$W/$l.json") ;;
    esac
    wall[$l]+="$s "; cpu[$l]+="$c "
  done
done
for l in "${labels[@]}"; do
  # shellcheck disable=SC2086
  printf "%-8s wall %.2f s  cpu %.2f s   (runs: %s)\n" "$l" "$(median ${wall[$l]})" "$(median ${cpu[$l]})" "${wall[$l]}"
done
# shellcheck disable=SC2086
awk -v m="$(median ${wall[metrics]})" -v p="$(median ${wall[polars]})" -v d="$(median ${wall[pandas]})" -v s="$(median ${wall[scan]})" 'BEGIN {
  printf "polars / metrics: %.1fx wall (goal >= 2x); pandas / metrics: %.1fx wall (goal >= 10x)\n", p/m, d/m
  printf "pandas / scan: %.1fx wall: 10x pandas needs metrics at %.2fx the per-episode scan (metrics.sh allows 2.5x)\n", d/s, d/10/s }'
