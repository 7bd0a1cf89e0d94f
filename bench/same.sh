#!/usr/bin/env bash
# Sameness check: every figure of OLD_BINARY and NEW_BINARY, byte for byte.
# Usage: bench/same.sh OLD_BINARY NEW_BINARY
# OLD_BINARY builds four lakes and each binary reads its own copy of them
# (LAKES=each: each binary builds its own, which checks ingest too; the
# report's provenance and lake health then differ where the files do):
#   demo      examples/demo/run.sh (DEMO_SANDBOX=none unless set: only the
#             in-process declarative checks; the simulated judges)
#   bench     `trustlake gen` as in bench/metrics.sh, ROWS verdict rows
#             (default 100000), reward model scored at --threshold 0.5
#   arb       examples/agentrewardbench/run.sh (its two lakes: reward, expert)
#   tau       examples/tau-bench (ingest tau-bench)
# The real-data lakes need $TRUSTLAKE_DATA (default ../shared/data beside
# the repository); they are skipped with a message when it is missing.
# Then on every lake it runs, with each binary:
#   metrics --json, with --by category --by source --by hardness, and
#   --gt human when the lake has human labels; compare --json --claim-sway
#   for every judge with E2+claim and E2-lastk runs; threshold --json for
#   every score-only judge × condition; checklist --json for every
#   judge × condition; trust --json; report.json without generated_at and trustlake_version (the build).
# The work folder's path is replaced by LAKE in every output. Prints each
# difference (diff -u) and exits 1 when there is one.
# Env: ROWS, BOOTSTRAP (resamples, default 2000), KEEP=1 keeps the work folder.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: bench/same.sh OLD_BINARY NEW_BINARY" >&2; exit 2; }
OLD=$(realpath "$1"); NEW=$(realpath "$2")
cd "$(dirname "$0")/.."
ROOT=$PWD
ROWS=${ROWS:-100000}
B=${BOOTSTRAP:-2000}
DATA=${TRUSTLAKE_DATA:-$ROOT/../shared/data}
W=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-same.XXXXXX")
[ -n "${KEEP:-}" ] && echo "work folder: $W" || trap 'rm -rf "$W"' EXIT
# The demo needs the simulated judge and the verifier binary beside trustlake.
SIMJUDGE=${SIMJUDGE:-$ROOT/bin/trustlake-simjudge}
CHECK=${CHECK_BINARY:-$ROOT/bin/trustlake-check}
[ -x "$SIMJUDGE" ] && [ -x "$CHECK" ] || (cd "$ROOT" && make -s bin/trustlake-simjudge check-binary) || exit 1
failed=0

# build SIDE BIN: the lakes of one binary under $W/SIDE.
build() {
  local side=$1 bin=$2 d="$W/$1"
  mkdir -p "$d"
  (cd "$ROOT" && TRUSTLAKE=$bin SIMJUDGE=$SIMJUDGE CHECK_BINARY=$CHECK DEMO_DIR="$d/demo" \
    DEMO_SANDBOX=${DEMO_SANDBOX:-none} bash examples/demo/run.sh >"$d/demo.log" 2>&1) ||
    { echo "$side: demo/run.sh failed (see $d/demo.log)"; failed=1; }
  "$bin" gen --out "$d/gen" --no-episodes --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
  "$bin" --lake "$d/bench" ingest episodes "$d/gen/episodes" >/dev/null
  "$bin" --lake "$d/bench" ingest verdicts "$d/gen/verdicts/verdicts.jsonl" >/dev/null
  if [ -d "$DATA/webjudge-agentrewardbench" ]; then
    (cd "$ROOT" && TRUSTLAKE=$bin TRUSTLAKE_DATA=$DATA BOOTSTRAP=$B \
      bash examples/agentrewardbench/run.sh "$d/arb" >"$d/arb.log" 2>&1) ||
      { echo "$side: agentrewardbench/run.sh failed (see $d/arb.log)"; failed=1; }
  fi
  if [ -r "$DATA/tau-bench/gpt-4o-airline.json" ]; then
    "$bin" --lake "$d/tau" ingest tau-bench "$DATA/tau-bench/gpt-4o-airline.json" >/dev/null 2>&1
  fi
}

# lakes: the lake folders built (names under $W/SIDE).
lakes() {
  local l
  for l in demo/lake bench arb/lake-reward arb/lake-expert tau; do
    [ -d "$W/old/$l" ] && [ -d "$W/new/$l" ] && echo "$l"
  done
}

# side_lakes SIDE: the folder of the lakes SIDE reads (trust stores its
# audit in the lake, so each side has its own copy).
side_lakes() { echo "$W/$1"; }

# normalise FILE: the work folder's paths as LAKE.
normalise() { sed -i -E "s#$W/(old|new)#LAKE#g" "$1"; }

# q LAKE SQL: one column of a query on the old side's lake (the lists to run).
q() { "$OLD" --lake "$W/old/$1" sql -f csv "$2" 2>/dev/null | tail -n +2; }

# outputs LAKE: lines "NAME<TAB>ARGS..." of every command to compare.
outputs() {
  local l=$1 thr=() by= jc j k c human=
  [ "$l" = bench ] && thr=(--threshold 0.5)
  [ "$(q "$l" "SELECT count(*) FROM human_reference WHERE pass IS NOT NULL")" != 0 ] && human="--gt human"
  # compare pairs score-only runs (a reward model's) only at a threshold.
  [ "$(q "$l" "SELECT count(*) FROM verdicts WHERE verdict IS NULL AND score IS NOT NULL")" != 0 ] && by="--threshold 0.5"
  echo "metrics	metrics --json --bootstrap $B ${thr[*]}"
  echo "metrics-by	metrics --json --bootstrap $B ${thr[*]} --by category --by source --by hardness"
  if [ -n "$human" ]; then
    echo "metrics-human	metrics --json --bootstrap $B --gt human"
    echo "metrics-human-by	metrics --json --bootstrap $B --gt human --by category --by source"
  fi
  for j in $(q "$l" "SELECT DISTINCT judge FROM verdicts WHERE condition = 'E2+claim'
      AND judge IN (SELECT judge FROM verdicts WHERE condition = 'E2-lastk') ORDER BY 1"); do
    echo "compare-$j	compare --json --bootstrap $B $by --claim-sway $j"
  done
  # The first two judges of the first condition with two, paired.
  jc=$(q "$l" "SELECT condition || '|' || string_agg(judge, '|' ORDER BY judge) FROM (SELECT DISTINCT condition, judge FROM verdicts
      WHERE verdict IS NOT NULL) GROUP BY condition HAVING count(*) >= 2 ORDER BY condition LIMIT 1")
  if [ -n "$jc" ]; then
    IFS='|' read -r c j k _ <<<"$jc"
    echo "compare-pair	compare --json --bootstrap $B $by $human $j@$c $k@$c"
  fi
  for jc in $(q "$l" "SELECT DISTINCT judge || '|' || condition FROM verdicts WHERE verdict IS NULL AND score IS NOT NULL ORDER BY 1"); do
    echo "threshold-$jc	threshold --json --bootstrap $B --judge ${jc%%|*} --condition ${jc#*|}"
  done
  for jc in $(q "$l" "SELECT DISTINCT judge || '|' || condition FROM verdicts ORDER BY 1"); do
    j=${jc%%|*}; c=${jc#*|}
    echo "checklist-$jc	checklist --json --bootstrap $B ${thr[*]} --judge $j --condition $c"
  done
  echo "trust	trust --json"
}

# run SIDE BIN LAKE NAME ARGS...: one output into $W/SIDE/out/LAKE/NAME.
run() {
  local side=$1 bin=$2 l=$3 name=$4; shift 4
  local o="$W/$side/out/${l//\//_}"
  mkdir -p "$o"
  "$bin" --lake "$(side_lakes "$side")/$l" "$@" >"$o/$name" 2>"$o/$name.err"
  echo "exit $?" >>"$o/$name.err"
  normalise "$o/$name"; normalise "$o/$name.err"
}

# report SIDE BIN LAKE: report.json without its timestamp.
report() {
  local side=$1 bin=$2 l=$3 o="$W/$1/out/${3//\//_}" thr=()
  [ "$l" = bench ] && thr=(--threshold 0.5)
  mkdir -p "$o"
  "$bin" --lake "$(side_lakes "$side")/$l" report --out "$W/$side/report-${l//\//_}" --bootstrap "$B" "${thr[@]}" >/dev/null 2>"$o/report.err"
  echo "exit $?" >>"$o/report.err"
  normalise "$o/report.err"
  python3 - "$W/$side/report-${l//\//_}/report.json" >"$o/report.json" 2>>"$o/report.err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("generated_at", "trustlake_version")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
json.dump(strip(d), sys.stdout, indent=1, sort_keys=True)
PY
  normalise "$o/report.json"
}

build old "$OLD"
if [ "${LAKES:-}" = each ]; then build new "$NEW"; else cp -a "$W/old" "$W/new"; fi
diffs=0; n=0
for l in $(lakes); do
  # The report first: trust stores its audit in the lake, which changes
  # the manifest the report's provenance names.
  report old "$OLD" "$l"
  report new "$NEW" "$l"
  while IFS=$'\t' read -r name args; do
    name=${name//[:|\/]/_}
    # shellcheck disable=SC2086
    run old "$OLD" "$l" "$name" $args
    # shellcheck disable=SC2086
    run new "$NEW" "$l" "$name" $args
  done < <(outputs "$l")
done
for l in $(lakes); do
  o="$W/old/out/${l//\//_}"
  for f in "$o"/*; do
    g="$W/new/out/${l//\//_}/$(basename "$f")"
    n=$((n + 1))
    if ! cmp -s "$f" "$g"; then
      diffs=$((diffs + 1))
      echo "== $l: $(basename "$f") differs"
      diff -u "$f" "$g" | head -n "${DIFF_LINES:-40}"
    fi
  done
done
# Commands that failed (the same way on both sides when nothing differs):
# worth a look, a failure compares equal.
for f in "$W"/old/out/*/*.err; do
  grep -q '^exit 0$' "$f" || echo "note: $(basename "$(dirname "$f")")/$(basename "$f" .err): $(grep -m1 -v '^exit' "$f" | cut -c1-120) ($(tail -n1 "$f"))"
done
echo "same.sh: $n outputs compared on $(lakes | wc -l) lakes, $diffs differ"
[ "$diffs" -eq 0 ] && [ "$failed" -eq 0 ]
