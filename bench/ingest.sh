#!/usr/bin/env bash
# Ingest benchmark (issue: lake foundation). 1,000,000 verdict rows from one
# JSONL file made by `trustlake gen`, ingested with full validation, natural-
# key dedupe and an atomic commit, side by side in the same run with DuckDB's
# own COPY ... PARTITION_BY ... COMPRESSION zstd on the same file (no
# validation, no dedupe, no key index, no commit), run by the
# same binary. Reports rows/s, the ratio, CPU seconds and peak RSS (GNU
# time). BASELINE=path/to/an/older/trustlake adds that build to every
# round (ours, baseline, DuckDB, interleaved) and prints its figures too.
# With polars in the venv (PY, default .venv/bin/python; PY=none skips it)
# each round also runs polars read_ndjson(...).write_parquet(partition_by=
# [judge, condition]) with zstd on the same file, and with duckdb in it the
# newest DuckDB from PyPI runs the same COPY. RESULTS=file.json writes
# the medians, with the build and the machine's load, as JSON.
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
PY=${PY:-.venv/bin/python}
havepl=false
if [ -x "$PY" ] && "$PY" -c 'import polars' 2>/dev/null; then
  havepl=true
  cat >"$W/polars_copy.py" <<'PY'
import sys
import polars as pl
pl.read_ndjson(sys.argv[1]).write_parquet(sys.argv[2], partition_by=["judge", "condition"], compression="zstd")
PY
fi
# The newest DuckDB from PyPI (pinned in python/requirements-bench.txt), the same COPY.
havepd=false
if [ -x "$PY" ] && "$PY" -c 'import duckdb' 2>/dev/null; then
  havepd=true
  cat >"$W/duckdb_copy.py" <<'PY'
import sys
import duckdb
duckdb.sql(f"COPY (SELECT * FROM read_json('{sys.argv[1]}')) TO '{sys.argv[2]}' "
           "(FORMAT parquet, PARTITION_BY (judge, condition), COMPRESSION zstd)")
PY
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "input: $N verdict rows, $(du -h "$F" | cut -f1) in one JSONL file"


ours=(); duck=(); ours_cpu=(); duck_cpu=(); ours_kb=0; duck_kb=0
base=(); base_cpu=(); base_kb=0
pol=(); pol_cpu=(); pol_kb=0
pyd=(); pyd_cpu=(); pyd_kb=0
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
  if $havepl; then
    rm -rf "$W/polars"
    read -r s kb c < <(measure_cpu polars "$PY" "$W/polars_copy.py" "$F" "$W/polars")
    pol+=("$s"); pol_cpu+=("$c"); [ "$kb" -gt "$pol_kb" ] && pol_kb=$kb
  fi
  if $havepd; then
    rm -rf "$W/pyduck"
    read -r s kb c < <(measure_cpu pyduck "$PY" "$W/duckdb_copy.py" "$F" "$W/pyduck")
    pyd+=("$s"); pyd_cpu+=("$c"); [ "$kb" -gt "$pyd_kb" ] && pyd_kb=$kb
  fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
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
# peer LABEL WALL CPU PEAK_KB: one Python peer's medians against ours.
peer() {
  awk -v n="$N" -v l="$1" -v mp="$2" -v cp="$3" -v kp="$4" -v mo="$mo" -v co="$co" 'BEGIN {
    printf "%-30s %.2f s  %9.0f rows/s  cpu %.2f s  peak %4.0f MiB; trustlake vs it: wall %.2f×, cpu %.2f×\n", l ":", mp, n/mp, cp, kp/1024, mp/mo, cp/co
  }'
}
mp=0; cp=0; mq=0; cq=0
if $havepl; then
  mp=$(median "${pol[@]}"); cp=$(median "${pol_cpu[@]}")
  peer "polars $("$PY" -c 'import polars; print(polars.__version__)') write_parquet" "$mp" "$cp" "$pol_kb"
  echo "runs (s): polars ${pol[*]} (cpu ${pol_cpu[*]})"
else
  echo "polars skipped: $PY without polars (make venv, or PY=none given)"
fi
if $havepd; then
  mq=$(median "${pyd[@]}"); cq=$(median "${pyd_cpu[@]}")
  peer "duckdb $("$PY" -c 'import duckdb; print(duckdb.__version__)') (PyPI) COPY" "$mq" "$cq" "$pyd_kb"
  echo "runs (s): duckdb (PyPI) ${pyd[*]} (cpu ${pyd_cpu[*]})"
else
  echo "PyPI duckdb skipped: $PY without duckdb (make venv, or PY=none given)"
fi
if [ -n "${RESULTS:-}" ]; then
  # bench/README.md, "Results files": one benchmark entry, every figure
  # with its baseline in the same rounds.
  build=$("$T" --version 2>/dev/null | awk '{print $NF}')
  load=${load_after%% *}
  fig() { # name unit value baseline baseline_value
    awk -v n="$1" -v u="$2" -v v="$3" -v b="$4" -v bv="$5" 'BEGIN {
      printf "        {\"name\": \"%s\", \"unit\": \"%s\", \"value\": %s, \"baseline\": \"%s\", \"baseline_value\": %s, \"ratio\": %.2f}", n, u, v, b, bv, (u == "rows/s" ? v/bv : v/bv) }'
  }
  figs=$(fig "wall" s "$mo" "DuckDB COPY" "$md"; echo ,; fig "rows/s" rows/s "$(awk -v n="$N" -v s="$mo" 'BEGIN {printf "%.0f", n/s}')" "DuckDB COPY" "$(awk -v n="$N" -v s="$md" 'BEGIN {printf "%.0f", n/s}')"; echo ,; fig "cpu" s "$co" "DuckDB COPY" "$cd")
  if $havepl; then
    figs+=$(echo ,; fig "wall" s "$mo" "polars write_parquet" "$mp"; echo ,; fig "cpu" s "$co" "polars write_parquet" "$cp")
  fi
  if $havepd; then
    figs+=$(echo ,; fig "wall" s "$mo" "DuckDB (PyPI) COPY" "$mq"; echo ,; fig "cpu" s "$co" "DuckDB (PyPI) COPY" "$cq")
  fi
  if [ -n "${BASELINE:-}" ]; then
    figs+=$(echo ,; fig "wall" s "$mo" "$("$BASELINE" --version 2>/dev/null | awk '{print $NF}')" "$(median "${base[@]}")"; echo ,; fig "cpu" s "$co" "$("$BASELINE" --version 2>/dev/null | awk '{print $NF}')" "$(median "${base_cpu[@]}")")
  fi
  fastest=$md
  if $havepl && awk -v a="$mp" -v b="$fastest" 'BEGIN {exit !(a < b)}'; then fastest=$mp; fi
  if $havepd && awk -v a="$mq" -v b="$fastest" 'BEGIN {exit !(a < b)}'; then fastest=$mq; fi
  met=$(awk -v f="$fastest" -v o="$mo" 'BEGIN {print (f/o >= 1 ? "true" : "false")}')
  cat >"$RESULTS" <<JSON
{
  "date": "$(date -u +%F)",
  "build": "$build",
  "branch": "$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo null)",
  "source": "bench/ingest.sh ROWS=$ROWS REPS=$REPS",
  "machine": {"cores": $(nproc), "load": $load},
  "benchmarks": [
    {
      "script": "ingest.sh", "build": "$build", "time": "$(date -u +%FT%H:%MZ)", "load": $load, "reps": $REPS,
      "goal": ">= 1.0x the rows/s of the fastest of DuckDB COPY (linked and PyPI) and polars", "met": $met,
      "figures": [
$(echo "$figs" | sed '/^,$/d; $!s/$/,/' | sed 's/,,$/,/')
      ]
    }
  ]
}
JSON
  echo "results written to $RESULTS"
fi
