#!/usr/bin/env bash
# Viewer benchmark (issue 27, "fast on a big lake"). Two lakes from
# `trustlake gen` with SMALL and BIG verdict rows (defaults 1,000,000 and
# 10,000,000); `trustlake view` on each; curl times, per lake, the median
# of REPS requests of:
#   episode   GET /api/episodes/{id}, a different episode each time
#   page      GET /episodes/{id} (the HTML page, with prev/next of its list)
#   list      GET /episodes?judge=J&condition=C&outcome=fp (the HTML list)
#   overview  GET /api/overview: the first load, then the median of the next
# Prints each figure and the ratios the issue sets: episode and page
# BIG/SMALL (goal ≤ 1.5), list BIG/SMALL (goal ≤ 2), overview second/first
# (goal ≤ 0.1). Ratios only: absolute times depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
SMALL=${SMALL:-1000000}
BIG=${BIG:-10000000}
REPS=${REPS:-9}
source bench/lib.sh
bench_init view

# lake ROWS DIR: a lake with about ROWS verdict rows (episodes with ground truth).
lake() {
  "$T" gen --out "$2/gen" --no-episodes --single-verdicts-file --verdict-rows "$1" >/dev/null
  "$T" --lake "$2/lake" ingest episodes "$2/gen/episodes" >/dev/null
  "$T" --lake "$2/lake" ingest verdicts "$2/gen/verdicts/verdicts.jsonl" >/dev/null
  rm -rf "$2/gen"
}

# serve DIR: start trustlake view on DIR/lake; sets URL and PID.
serve() {
  "$T" --lake "$1/lake" view 2>"$1/view.err" &
  PID=$!
  for _ in $(seq 100); do
    URL=$(sed -n 's/^trustlake view: //p' "$1/view.err" | head -n 1)
    [ -n "$URL" ] && return
    sleep 0.1
  done
  echo "trustlake view did not start" >&2
  exit 1
}

t() { curl -fsS -o /dev/null -w '%{time_total}\n' "$1"; }

# figures DIR: print "episode page list overview_first overview_next".
figures() {
  serve "$1"
  local ids judge
  ids=$("$T" --lake "$1/lake" sql -f csv "SELECT episode_id FROM episodes USING SAMPLE $REPS ROWS (reservoir, 7)" | tail -n +2)
  judge=sim:vlm-a
  local first over=() ep=() pg=() ls=()
  first=$(t "${URL}api/overview")
  for _ in $(seq "$REPS"); do over+=("$(t "${URL}api/overview")"); done
  for id in $ids; do
    ep+=("$(t "${URL}api/episodes/$id")")
    pg+=("$(t "${URL}episodes/$id?judge=$judge&condition=E2-lastk&outcome=fp")")
  done
  for _ in $(seq "$REPS"); do ls+=("$(t "${URL}episodes?judge=$judge&condition=E2-lastk&outcome=fp")"); done
  kill -INT "$PID"; wait "$PID"
  echo "$(median "${ep[@]}") $(median "${pg[@]}") $(median "${ls[@]}") $first $(median "${over[@]}")"
}

mkdir -p "$W/small" "$W/big"
lake "$SMALL" "$W/small"
lake "$BIG" "$W/big"
read -r es ps ls fs os < <(figures "$W/small")
read -r eb pb lb fb ob < <(figures "$W/big")
echo "lake        episode  page     list     overview(first) overview(next)"
printf 'small %-6s %-8s %-8s %-8s %-15s %s\n' "$SMALL" "$es" "$ps" "$ls" "$fs" "$os"
printf 'big   %-6s %-8s %-8s %-8s %-15s %s\n' "$BIG" "$eb" "$pb" "$lb" "$fb" "$ob"
awk -v es="$es" -v eb="$eb" -v ps="$ps" -v pb="$pb" -v ls="$ls" -v lb="$lb" -v fb="$fb" -v ob="$ob" -v fs="$fs" -v os="$os" 'BEGIN {
  printf "episode big/small %.2f (goal <= 1.5)\n", eb / es
  printf "page    big/small %.2f (goal <= 1.5)\n", pb / ps
  printf "list    big/small %.2f (goal <= 2)\n", lb / ls
  printf "overview next/first: small %.3f, big %.3f (goal <= 0.1)\n", os / fs, ob / fb
}'
