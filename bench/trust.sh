#!/usr/bin/env bash
# Trust Layer benchmark: generate N simulated τ-bench recorded results (5
# trials per task, 30-message trajectories), then time `trustlake ingest
# tau-bench` and `trustlake trust` as whole processes and print results/s,
# the audit/ingest time ratio (goal: ≤ 5) and the peak resident memory of
# each. Usage: bench/trust.sh [N] (default 100000). Needs bin/trustlake
# (make build) and GNU time (/usr/bin/time).
set -euo pipefail
N=${1:-100000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TRUSTLAKE:-$ROOT/bin/trustlake}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-trust.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$BIN" ] || { echo "bench/trust.sh: $BIN missing; run make build" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/trust.sh: /usr/bin/time (GNU time) missing" >&2; exit 1; }

FILE=$WORK/sim-airline.json
(cd "$ROOT" && go run ./bench/gentau -results "$N" -out "$FILE")

# measure NAME CMD...: run CMD, keep its wall time (s) and peak RSS (KiB).
measure() {
	local name=$1; shift
	/usr/bin/time -f '%e %M' -o "$WORK/$name.time" "$@" >"$WORK/$name.out"
	read -r secs kib <"$WORK/$name.time"
	eval "${name}_secs=$secs ${name}_kib=$kib"
}
measure ingest "$BIN" --lake "$WORK/lake" ingest tau-bench "$FILE"
cat "$WORK/ingest.out"
measure trust "$BIN" --lake "$WORK/lake" trust
tail -n 1 "$WORK/trust.out"
sed -n '/^| all | all |/p' "$WORK/trust.out" | head -n 1

awk -v n="$N" -v is="$ingest_secs" -v ik="$ingest_kib" -v ts="$trust_secs" -v tk="$trust_kib" 'BEGIN {
	printf "%-22s %10s %12s %14s\n", "step", "seconds", "results/s", "peak RSS MiB"
	printf "%-22s %10.1f %12.0f %14.0f\n", "ingest tau-bench", is, n / is, ik / 1024
	printf "%-22s %10.1f %12.0f %14.0f\n", "trust (audit+store)", ts, n / ts, tk / 1024
	printf "audit/ingest time ratio: %.2f (goal ≤ 5)\n", ts / is
}'
