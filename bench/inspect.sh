#!/usr/bin/env bash
# Inspect AI benchmark (issue 10): ingest a 10,000-sample .eval log with
# `trustlake ingest inspect` (validation, dedupe, five tables, atomic commit)
# side by side with inspect-ai's own reader (read_eval_log, the pinned
# version in .venv) on the same file; time and peak RSS of each, at N and
# N/10 samples, so the memory growth with the number of samples shows.
# The log comes from bench/geninspect (real inspect-ai samples repeated
# under new ids; inspect-ai's reader validates it here). Usage:
# N=10000 REPS=1 bench/inspect.sh. Needs bin/trustlake and GNU time; the
# inspect-ai column needs .venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10000}
REPS=${REPS:-1}
source bench/lib.sh
bench_init inspect
PY=.venv/bin/python

small=$((N / 10))
for n in "$small" "$N"; do
  go run ./bench/geninspect -samples "$n" -out "$W/log-$n.eval"
done
echo "input: $N samples in one .eval ($(du -h "$W/log-$N.eval" | cut -f1), zstd entries); and $small"

cat >"$W/read.py" <<'PY'
import sys
from inspect_ai.log import read_eval_log
log = read_eval_log(sys.argv[1])
n = int(sys.argv[2])
assert log.status == "success" and len(log.samples) == n, (log.status, len(log.samples))
PY

# run NAME N CMD...: median wall seconds, max peak RSS (KiB) and median
# CPU seconds over REPS runs.
run() {
  local name=$1 n=$2; shift 2
  local secs=() cpus=() kb=0 s k c
  for _ in $(seq "$REPS"); do
    rm -rf "$W/lake"
    read -r s k c < <(measure_cpu "$name" "$@")
    secs+=("$s"); cpus+=("$c"); [ "$k" -gt "$kb" ] && kb=$k
  done
  echo "$(median "${secs[@]}") $kb $(median "${cpus[@]}")"
}

# row LABEL N SECONDS KIB CPU
row() { awk -v l="$1" -v n="$2" -v s="$3" -v k="$4" -v c="$5" 'BEGIN { printf "%-36s %8d %9.2f %9.2f %10.0f %13.0f\n", l, n, s, c, n / s, k / 1024 }'; }
printf '%-36s %8s %9s %9s %10s %13s\n' step samples seconds "cpu s" samples/s "peak RSS MiB"
declare -A S K C
for n in "$small" "$N"; do
  read -r S[ours$n] K[ours$n] C[ours$n] < <(run ours "$n" "$T" --lake "$W/lake" ingest inspect "$W/log-$n.eval")
  row "trustlake ingest inspect" "$n" "${S[ours$n]}" "${K[ours$n]}" "${C[ours$n]}"
  if [ -x "$PY" ] && "$PY" -c 'import inspect_ai' 2>/dev/null; then
    read -r S[py$n] K[py$n] C[py$n] < <(run py "$n" "$PY" "$W/read.py" "$W/log-$n.eval" "$n")
    row "inspect-ai $("$PY" -c 'import inspect_ai; print(inspect_ai.__version__)') read_eval_log" "$n" "${S[py$n]}" "${K[py$n]}" "${C[py$n]}"
  fi
done
awk -v oc="${C[ours$N]}" -v pc="${C[py$N]:-0}" -v os="${S[ours$N]}" -v ok1="${K[ours$small]}" -v ok2="${K[ours$N]}" -v ps="${S[py$N]:-0}" -v pk1="${K[py$small]:-0}" -v pk2="${K[py$N]:-0}" 'BEGIN {
  printf "peak RSS growth %s→%s samples: trustlake ×%.2f", "'"$small"'", "'"$N"'", ok2 / ok1
  if (pk1 > 0) printf ", inspect-ai ×%.2f", pk2 / pk1
  printf "\n"
  if (ps > 0) printf "at %s samples, inspect-ai read / trustlake ingest: wall time %.2f, CPU time %.2f, peak RSS %.2f\n", "'"$N"'", ps / os, pc / oc, pk2 / ok2
  else print "inspect-ai column skipped: .venv/bin/python with inspect-ai missing (make venv)"
}'
