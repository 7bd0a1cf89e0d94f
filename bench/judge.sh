#!/usr/bin/env bash
# Judge runner benchmark. (1) Pack building: E2-lastk packs (4 screenshots
# each, downsampled 160→128 px, so every image is decoded, resized and
# re-encoded) for E generated episodes; goal ≥ 200 episodes/s. (2) Call
# throughput: `trustlake judge --backend openai` against a local endpoint
# holding every request 50 ms, at concurrency C; goal ≥ 0.9 × C / 0.05
# calls/s (the ideal rate is the baseline). (3) Memory: peak RSS of the
# runner over 10,000 and 100,000 calls (flat: ratio ≈ 1).
# Usage: bench/judge.sh [EPISODES] [C] [CALLS] (default 2000 32 100000).
# Needs bin/trustlake (make build) and GNU time (/usr/bin/time).
set -euo pipefail
E=${1:-2000}
C=${2:-32}
CALLS=${3:-100000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TRUSTLAKE:-$ROOT/bin/trustlake}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-judge.XXXXXX")
SERVER_PID=
trap '[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
[ -x "$BIN" ] || { echo "bench/judge.sh: $BIN missing; run make build" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/judge.sh: /usr/bin/time (GNU time) missing" >&2; exit 1; }

measure() {
	local name=$1; shift
	/usr/bin/time -f '%e %M %U %S' -o "$WORK/$name.time" "$@" >"$WORK/$name.out"
	read -r secs kib usr sys <"$WORK/$name.time"
	eval "${name}_secs=$secs ${name}_kib=$kib ${name}_cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN {print u + s}')"
}

# (1) Packs. Two agents: E episodes = tasks × 2 agents × episodes-per-task.
TASKS=$(( (E + 9) / 10 ))
"$BIN" gen --out "$WORK/g" --tasks "$TASKS" --episodes-per-task 5 --screens --judges sim:vlm-a >/dev/null
"$BIN" --lake "$WORK/lake" ingest episodes "$WORK/g/episodes" >/dev/null
EPS=$(ls "$WORK/g/episodes" | wc -l)
measure packs "$BIN" --lake "$WORK/lake" evidence --conditions E2-lastk --k 4 --max-image-side 128
cat "$WORK/packs.out"

# (2)+(3) Calls against the 50 ms endpoint.
(cd "$ROOT" && go build -o "$WORK/judgeserver" ./bench/judgeserver)
"$WORK/judgeserver" -latency 50ms >"$WORK/server.addr" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$WORK/server.addr" ] && break; sleep 0.1; done
URL=$(cat "$WORK/server.addr")
# Each measurement uses a fresh judge name, so nothing is skipped.
JUDGE=("$BIN" --lake "$WORK/lake" judge --backend openai --base-url "$URL" --model bench
	--conditions E2-lastk --concurrency "$C" --batch-interval 2s --batch-rows 4096)
RUNS_SMALL=$(( (10000 + EPS - 1) / EPS ))
RUNS_BIG=$(( (CALLS + EPS - 1) / EPS ))
measure small "${JUDGE[@]}" --judge bench-small --runs "$RUNS_SMALL"
tail -n 1 "$WORK/small.out"
measure big "${JUDGE[@]}" --judge bench-big --runs "$RUNS_BIG"
tail -n 1 "$WORK/big.out"

awk -v eps="$EPS" -v ps="$packs_secs" -v pk="$packs_kib" -v pc="$packs_cpu" -v c="$C" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
	-v sn="$((RUNS_SMALL * EPS))" -v ss="$small_secs" -v sk="$small_kib" \
	-v bn="$((RUNS_BIG * EPS))" -v bs="$big_secs" -v bk="$big_kib" 'BEGIN {
	ideal = c / 0.05
	printf "%-34s %9s %12s %14s\n", "step", "seconds", "per second", "peak RSS MiB"
	printf "%-34s %9.1f %12.0f %14.0f\n", "evidence E2-lastk (" eps " episodes)", ps, eps / ps, pk / 1024
	printf "%-34s %9.1f %12.0f %14.0f\n", "judge " sn " calls, C=" c, ss, sn / ss, sk / 1024
	printf "%-34s %9.1f %12.0f %14.0f\n", "judge " bn " calls, C=" c, bs, bn / bs, bk / 1024
	printf "pack building: %.0f episodes/s, %.2fx the 200/s goal (%.0f episodes per CPU-second; load average %s)\n", eps / ps, eps / ps / 200, eps / pc, load
	printf "throughput: %.0f calls/s = %.2f x the ideal C/latency %.0f/s (goal >= 0.90)\n", bn / bs, bn / bs / ideal, ideal
	printf "memory: peak RSS %.0f MiB over %d calls vs %.0f MiB over %d (ratio %.2f; flat = about 1)\n", bk / 1024, bn, sk / 1024, sn, bk / sk
}'
