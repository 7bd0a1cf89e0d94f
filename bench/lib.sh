# Shared by the bench scripts (source it after `cd` to the repository):
# a work folder removed on exit, GNU time, and the median of runs.
# bench_init NAME sets T (the binary), W (the work folder) and TIME.
bench_init() {
  T=${TRUSTLAKE:-bin/trustlake}
  W=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-bench-$1.XXXXXX")
  trap 'rm -rf "$W"' EXIT
  TIME=/usr/bin/time
  [ -x "$TIME" ] || { echo "bench needs GNU time (apt-get install time)" >&2; exit 2; }
}

# measure LABEL CMD...: run CMD (stdout discarded); print "seconds maxrss_kb".
measure() {
  local out="$W/time.$1"; shift
  "$TIME" -f "%e %M" -o "$out" "$@" >/dev/null
  cat "$out"
}

# median X...: the middle value (the lower middle for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure_cpu LABEL CMD...: like measure, plus the CPU seconds (user +
# system): "seconds maxrss_kb cpu_seconds". CPU time moves much less than
# wall time when other work shares the machine.
measure_cpu() {
  local out="$W/time.$1"; shift
  "$TIME" -f "%e %M %U %S" -o "$out" "$@" >/dev/null
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out"
}

# bench_copy BIN: copy BIN into the work folder and print the copy's path.
# The peak RSS GNU time reports counts the binary's pages that are mapped,
# and how many a run maps depends on how the file's pages sit in the page
# cache (a binary the linker just wrote mapped ~10 MiB more than a copy of
# it, the same code): copies written the same way compare fairly.
bench_copy() {
  local c
  c="$W/bin.$(basename "$1").$RANDOM"
  cp "$1" "$c"
  echo "$c"
}

# EPISODE_SCAN is the per-episode scan, the floor metrics.sh measures
# metrics against: the least work that reads the same columns, verdicts
# grouped per judge, condition and episode (then summed so that the output
# is small). Run it as "$T" sql "$EPISODE_SCAN".
# shellcheck disable=SC2034
EPISODE_SCAN="SELECT judge, condition, sum(n), sum(s) FROM (SELECT judge, condition, episode_id, count(*) AS n, count_if(verdict = 'success') AS s FROM verdicts GROUP BY ALL) GROUP BY ALL"
