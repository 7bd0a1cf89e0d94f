#!/usr/bin/env bash
# Scale benchmark (issue 14): a 10M-row verdict lake built the way a nightly
# job builds it, end to end. `trustlake gen` makes ROWS verdict rows (default
# 10,000,080) over episodes with ground truth; the verdicts are ingested in
# BATCHES batches (default 10, about 1M rows each, the same partitions).
# Printed: the time, CPU and peak RSS of every batch (the baseline is batch
# 1, appended into an empty lake: append cost must not grow with the lake),
# then metrics, compact and lake check on the 1-batch lake and on the full
# lake (the baseline is the 1-batch lake: growth should be linear or better).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-10000080}
BATCHES=${BATCHES:-10}
source bench/lib.sh
bench_init scale
export TRUSTLAKE_LAKE="$W/lake"

"$T" gen --out "$W/gen" --no-episodes --single-verdicts-file --verdict-rows "$ROWS" >/dev/null
N=$(wc -l < "$W/gen/verdicts/verdicts.jsonl")
per=$(( (N + BATCHES - 1) / BATCHES ))
split -l "$per" -d -a 3 "$W/gen/verdicts/verdicts.jsonl" "$W/batch."
rm "$W/gen/verdicts/verdicts.jsonl"
read -r s kb c < <(measure_cpu episodes "$T" ingest episodes "$W/gen/episodes")
echo "episodes + ground truth: $(ls "$W/gen/episodes" | wc -l) folders in ${s} s"
echo "verdicts: $N rows in $BATCHES batches of $per"

lakestep() { # NAME CMD...: print one line, keep seconds/peak/cpu in R_NAME
  local name=$1; shift
  read -r s kb c < <(measure_cpu "$name" "$@")
  printf '  %-34s %7.2f s  cpu %7.2f s  peak %5.0f MiB\n' "$name" "$s" "$c" "$((kb / 1024))"
  eval "R_${name//[^A-Za-z0-9]/_}='$s $c $kb'"
}
measure_all() { # SUFFIX: metrics and check on the lake as it is
  lakestep "metrics_$1" "$T" metrics --json --by category --by source --threshold 0.5 --bootstrap 2000
  lakestep "check_$1" "$T" lake check --json
}

i=0
for f in "$W"/batch.*; do
  i=$((i + 1))
  lakestep "ingest_batch_$i" "$T" ingest verdicts "$f"
  if [ "$i" -eq 1 ]; then
    measure_all first
  fi
done
measure_all full
lakestep "compact_full" "$T" lake compact --json
lakestep "check_compacted" "$T" lake check --json
echo "lake on disk: $(du -sh "$W/lake" | cut -f1) (data $(du -sh --exclude=_keys "$W/lake" | cut -f1), key index $(du -sh "$W/lake/_keys" | cut -f1))"

ratio() { # NAME A B FIELD: B / A of field (1 seconds, 2 cpu, 3 peak)
  local a b; eval "a=\$R_$2"; eval "b=\$R_$3"
  echo "$a" "$b" | awk -v n="$1" -v f="$4" '{printf "  %-44s %.2fx\n", n, $(f + 3) / $f}'
}
echo "growth (full lake of $BATCHES batches / first batch; 1.0 = flat, $BATCHES = linear):"
ratio "ingest: last batch / first batch (wall)" ingest_batch_1 "ingest_batch_$i" 1
ratio "ingest: last batch / first batch (cpu)" ingest_batch_1 "ingest_batch_$i" 2
ratio "ingest: last batch / first batch (peak RSS)" ingest_batch_1 "ingest_batch_$i" 3
ratio "metrics: full / first (wall)" metrics_first metrics_full 1
ratio "metrics: full / first (cpu)" metrics_first metrics_full 2
ratio "metrics: full / first (peak RSS)" metrics_first metrics_full 3
ratio "check: full / first (wall)" check_first check_full 1
ratio "check: full / first (cpu)" check_first check_full 2
ratio "check: full / first (peak RSS)" check_first check_full 3
