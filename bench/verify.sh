#!/usr/bin/env bash
# Verify benchmark (issue: ground truth). Verify EPISODES (default 200)
# episode folders made from the task library's fixtures with the docker
# backend, side by side in the same run with a plain serial shell loop of
# `docker run --rm --network none trustlake-check:latest ...` over the same
# episodes. Both do the same work: extract the final state and run the
# verifier twice per episode (trustlake checks determinism that way), each
# run in a fresh container. Also reports the bwrap backend's rate.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TRUSTLAKE:-bin/trustlake}
N=${EPISODES:-200}
JOBS=${JOBS:-4}
W=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-verify.XXXXXX")
trap 'rm -rf "$W"' EXIT
docker info >/dev/null 2>&1 || { echo "bench/verify.sh needs a Docker Engine" >&2; exit 2; }
bash images/build.sh >/dev/null

# Declarative tasks only (the loop runs trustlake-check), 2 copies each.
ids=$(grep -L '"verifier"' tasks/library/*/task.json | xargs -n1 dirname | xargs -n1 basename)
"$T" tasks episodes --out "$W/all" --copies 2 $ids >/dev/null
mkdir -p "$W/eps"
ls "$W/all" | head -n "$N" | while read -r e; do mv "$W/all/$e" "$W/eps/"; done
n=$(ls "$W/eps" | wc -l)
echo "episodes: $n (declarative tasks of tasks/library, 2 verifier runs each)"

loop() {
  for ep in "$W"/eps/*/; do
    task=$(sed -n 's/.*"task_id": *"\([^"]*\)".*/\1/p' "$ep/meta.json")
    s=$(mktemp -d "$W/state.XXXXXX")
    zstd -dcq "$ep/final_state.tar.zst" | tar -C "$s" -xf -
    chmod -R a+rX "$s"
    for run in 1 2; do
      docker run --rm --network none --read-only --user 65534:65534 \
        -v "$PWD/tasks/library/$task:/task:ro" -v "$s:/snapshot:ro" \
        trustlake-check:latest /trustlake-check /task /snapshot >/dev/null
    done
    rm -rf "$s"
  done
}

t0=$(date +%s.%N); loop; t1=$(date +%s.%N)
loop_s=$(echo "$t1 - $t0" | bc)
find "$W/eps" -name gt.json -delete
t0=$(date +%s.%N); "$T" --lake "$W/lake" verify --no-ingest --sandbox docker -j "$JOBS" "$W/eps" >/dev/null; t1=$(date +%s.%N)
docker_s=$(echo "$t1 - $t0" | bc)
find "$W/eps" -name gt.json -delete
t0=$(date +%s.%N); "$T" --lake "$W/lake" verify --no-ingest --sandbox bwrap --check-binary bin/trustlake-check -j "$JOBS" "$W/eps" >/dev/null; t1=$(date +%s.%N)
bwrap_s=$(echo "$t1 - $t0" | bc)

awk -v n="$n" -v l="$loop_s" -v d="$docker_s" -v b="$bwrap_s" -v j="$JOBS" 'BEGIN {
  printf "shell loop (docker run, serial):      %6.1f s  %5.2f episodes/s\n", l, n/l
  printf "trustlake verify --sandbox docker -j%d: %6.1f s  %5.2f episodes/s\n", j, d, n/d
  printf "trustlake verify --sandbox bwrap  -j%d: %6.1f s  %5.2f episodes/s\n", j, b, n/b
  printf "ratio docker verify / shell loop: %.2fx\n", l/d
}'
