#!/usr/bin/env bash
# make bench: every benchmark, each a ratio against a baseline run side by
# side in the same run. Absolute times depend on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")"
for b in lines ingest append metrics metrics_peers report scale verify trust judge inspect spark view; do
  [ -f "$b.sh" ] || continue
  echo "== bench/$b.sh"
  bash "$b.sh" || echo "bench/$b.sh failed" >&2
  echo
done
