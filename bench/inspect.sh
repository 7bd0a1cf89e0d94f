#!/usr/bin/env bash
# Inspect AI benchmark (issue 10): ingest .eval logs of N/10, N and 3N
# samples with `trustlake ingest inspect` (validation, dedupe, five tables,
# atomic commit) and print time, CPU and peak RSS of each, so the memory's
# growth with the number of samples shows; side by side, at N/10 and N,
# inspect-ai's own reader (read_eval_log, the pinned version in .venv) on
# the same files. The logs come from bench/geninspect (real inspect-ai
# samples repeated under new ids; inspect-ai's reader validates them).
# Usage: N=10000 REPS=3 bench/inspect.sh. BASE=path/to/other/trustlake
# also runs that binary, interleaved with this one on the same logs (a
# before/after comparison). Needs bin/trustlake and GNU time; the
# inspect-ai column needs .venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10000}
REPS=${REPS:-1}
BASE=${BASE:-}
source bench/lib.sh
bench_init inspect
BASENAME=$BASE
T=$(bench_copy "$T")
[ -n "$BASE" ] && BASE=$(bench_copy "$BASE")
PY=${PY:-.venv/bin/python} # PY=none skips the inspect-ai column
havepy=false
if [ -x "$PY" ] && "$PY" -c 'import inspect_ai' 2>/dev/null; then havepy=true; fi

sizes=($((N / 10)) "$N" $((N * 3)))
for n in "${sizes[@]}"; do
  go run ./bench/geninspect -samples "$n" -out "$W/log-$n.eval"
done
echo "input: ${sizes[*]} samples, one .eval each ($(du -h "$W/log-$N.eval" | cut -f1) at $N; zstd entries)"

cat >"$W/read.py" <<'PY'
import sys
from inspect_ai.log import read_eval_log
log = read_eval_log(sys.argv[1])
n = int(sys.argv[2])
assert log.status == "success" and len(log.samples) == n, (log.status, len(log.samples))
PY

# row LABEL N SECONDS KIB CPU
row() { awk -v l="$1" -v n="$2" -v s="$3" -v k="$4" -v c="$5" 'BEGIN { printf "%-36s %8d %9.2f %9.2f %10.0f %13.0f\n", l, n, s, c, n / s, k / 1024 }'; }
printf '%-36s %8s %9s %9s %10s %13s\n' step samples seconds "cpu s" samples/s "peak RSS MiB"

# Each size: REPS rounds of (this binary, BASE if given), interleaved;
# median wall and CPU, median peak RSS.
declare -A S K C
progs=(ours)
[ -n "$BASE" ] && progs+=(base)
for n in "${sizes[@]}"; do
  declare -A secs=() cpus=() kbs=()
  for _ in $(seq "$REPS"); do
    for p in "${progs[@]}"; do
      bin=$T
      [ "$p" = base ] && bin=$BASE
      rm -rf "$W/lake"
      read -r s k c < <(measure_cpu "$p" "$bin" --lake "$W/lake" ingest inspect "$W/log-$n.eval")
      secs[$p]+="$s "; cpus[$p]+="$c "; kbs[$p]+="$k "
    done
  done
  for p in "${progs[@]}"; do
    # shellcheck disable=SC2086
    S[$p$n]=$(median ${secs[$p]}); C[$p$n]=$(median ${cpus[$p]}); K[$p$n]=$(median ${kbs[$p]})
    label="trustlake ingest inspect"
    [ "$p" = base ] && label="baseline ($BASENAME)"
    row "$label" "$n" "${S[$p$n]}" "${K[$p$n]}" "${C[$p$n]}"
  done
  if $havepy && [ "$n" -le "$N" ]; then
    ss=(); cc=(); kk=()
    for _ in $(seq "$REPS"); do
      read -r s k c < <(measure_cpu py "$PY" "$W/read.py" "$W/log-$n.eval" "$n")
      ss+=("$s"); cc+=("$c"); kk+=("$k")
    done
    S[py$n]=$(median "${ss[@]}"); C[py$n]=$(median "${cc[@]}"); K[py$n]=$(median "${kk[@]}")
    row "inspect-ai $("$PY" -c 'import inspect_ai; print(inspect_ai.__version__)') read_eval_log" "$n" "${S[py$n]}" "${K[py$n]}" "${C[py$n]}"
  fi
done

a=${sizes[0]}; b=${sizes[1]}; c=${sizes[2]}
for p in "${progs[@]}"; do
  awk -v p="$p" -v a="$a" -v b="$b" -v c="$c" -v ka="${K[$p$a]}" -v kb="${K[$p$b]}" -v kc="${K[$p$c]}" 'BEGIN {
    printf "peak RSS growth (%s) %d → %d → %d samples: ×%.2f, ×%.2f (%d → %d: ×%.2f)\n", p == "ours" ? "trustlake" : "baseline", a, b, c, kb / ka, kc / kb, a, c, kc / ka }'
done
if [ -n "$BASE" ]; then
  for n in "${sizes[@]}"; do
    awk -v n="$n" -v co="${C[ours$n]}" -v cb="${C[base$n]}" -v ko="${K[ours$n]}" -v kb="${K[base$n]}" 'BEGIN {
      printf "at %d samples, trustlake / baseline: CPU %.2f, peak RSS %.2f\n", n, co / cb, ko / kb }'
  done
fi
if $havepy; then
  awk -v n="$N" -v a="$a" -v oc="${C[ours$N]}" -v pc="${C[py$N]}" -v os="${S[ours$N]}" -v ps="${S[py$N]}" -v ok="${K[ours$N]}" -v pk1="${K[py$a]}" -v pk2="${K[py$N]}" 'BEGIN {
    printf "peak RSS growth (inspect-ai) %d → %d samples: ×%.2f\n", a, n, pk2 / pk1
    printf "at %d samples, inspect-ai read / trustlake ingest: wall time %.2f, CPU time %.2f, peak RSS %.2f\n", n, ps / os, pc / oc, pk2 / ok }'
else
  echo "inspect-ai column skipped: $PY with inspect-ai missing (make venv, or PY=none given)"
fi
