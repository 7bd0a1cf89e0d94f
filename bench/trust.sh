#!/usr/bin/env bash
# Trust Layer benchmark: generate N simulated τ-bench recorded results (5
# trials per task, 30-message trajectories), then time `trustlake ingest
# tau-bench` and `trustlake trust` as whole processes and print results/s,
# the audit/ingest time ratio (goal: ≤ 5), CPU (user + system) and the
# peak resident memory of each. Usage: bench/trust.sh [N] (default
# 100000); REPS=3 repeats both steps on fresh lakes (median). BASELINE=
# path/to/an/older/trustlake runs that build too, interleaved, each build
# ingesting into its own lake and auditing it, so a change of the file
# layout shows in `trust` as well as in the binary. Needs bin/trustlake
# (make build) and GNU time (/usr/bin/time).
set -euo pipefail
N=${1:-100000}
REPS=${REPS:-1}
BASELINE=${BASELINE:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TRUSTLAKE:-$ROOT/bin/trustlake}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-trust.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$BIN" ] || { echo "bench/trust.sh: $BIN missing; run make build" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/trust.sh: /usr/bin/time (GNU time) missing" >&2; exit 1; }

# Copies written the same way: the peak RSS counts the binary's mapped
# pages, which depend on how the file sits in the page cache (bench/lib.sh).
cp "$BIN" "$WORK/bin.ours" && BIN=$WORK/bin.ours
[ -n "$BASELINE" ] && cp "$BASELINE" "$WORK/bin.base" && BASELINE=$WORK/bin.base

FILE=$WORK/sim-airline.json
(cd "$ROOT" && go run ./bench/gentau -results "$N" -out "$FILE")

# measure NAME CMD...: run CMD, print its wall time (s), peak RSS (KiB)
# and CPU time (s).
measure() {
	local name=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$WORK/$name.time" "$@" >"$WORK/$name.out"
	awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$WORK/$name.time"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

progs=(ours)
[ -n "$BASELINE" ] && progs+=(base)
declare -A IS IK IC TS TK TC
for _ in $(seq "$REPS"); do
	for p in "${progs[@]}"; do
		bin=$BIN
		[ "$p" = base ] && bin=$BASELINE
		rm -rf "$WORK/lake-$p"
		read -r s k c < <(measure "ingest-$p" "$bin" --lake "$WORK/lake-$p" ingest tau-bench "$FILE")
		IS[$p]+="$s "; IK[$p]+="$k "; IC[$p]+="$c "
		read -r s k c < <(measure "trust-$p" "$bin" --lake "$WORK/lake-$p" trust)
		TS[$p]+="$s "; TK[$p]+="$k "; TC[$p]+="$c "
	done
done
cat "$WORK/ingest-ours.out"
tail -n 1 "$WORK/trust-ours.out"
sed -n '/^| all | all |/p' "$WORK/trust-ours.out" | head -n 1

printf '%-34s %10s %8s %12s %14s\n' "step" "seconds" "cpu s" "results/s" "peak RSS MiB"
for p in "${progs[@]}"; do
	label=""
	[ "$p" = base ] && label=" (baseline)"
	# shellcheck disable=SC2086
	is=$(median ${IS[$p]}) ik=$(median ${IK[$p]}) ic=$(median ${IC[$p]}) ts=$(median ${TS[$p]}) tk=$(median ${TK[$p]}) tc=$(median ${TC[$p]})
	eval "${p}_ts=$ts ${p}_tk=$tk ${p}_tc=$tc"
	awk -v n="$N" -v l="$label" -v is="$is" -v ik="$ik" -v ic="$ic" -v ts="$ts" -v tk="$tk" -v tc="$tc" 'BEGIN {
		printf "%-34s %10.1f %8.1f %12.0f %14.0f\n", "ingest tau-bench" l, is, ic, n / is, ik / 1024
		printf "%-34s %10.1f %8.1f %12.0f %14.0f\n", "trust (audit+store)" l, ts, tc, n / ts, tk / 1024
		printf "audit/ingest time ratio%s: %.2f (goal ≤ 5)\n", l, ts / is
	}'
done
if [ -n "$BASELINE" ]; then
	# shellcheck disable=SC2154
	awk -v to="$ours_tc" -v tb="$base_tc" -v ko="$ours_tk" -v kb="$base_tk" 'BEGIN {
		printf "trust, this build / baseline (each on its own lake): CPU %.2f, peak RSS %.2f (%.0f vs %.0f MiB)\n", to / tb, ko / kb, ko / 1024, kb / 1024 }'
fi
echo "median of $REPS run(s)"
