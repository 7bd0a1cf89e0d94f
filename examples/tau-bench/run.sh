#!/usr/bin/env bash
# Trust Layer audit of the real τ-bench file with the trustlake CLI: ingest
# the trajectories into a fresh lake, then audit and print the tables that
# README.md shows. Usage: examples/tau-bench/run.sh [--json | other trust flags]
# Env: TRUSTLAKE (binary, default bin/trustlake), TRUSTLAKE_DATA (the shared
# data folder, default ../shared/data beside the repository), LAKE (default: a temporary lake).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${TRUSTLAKE:-$ROOT/bin/trustlake}
DATA=${TRUSTLAKE_DATA:-$ROOT/../shared/data}
FILE=$DATA/tau-bench/gpt-4o-airline.json
[ -x "$BIN" ] || { echo "run.sh: $BIN missing; run make build" >&2; exit 1; }
[ -r "$FILE" ] || { echo "run.sh: $FILE not found (set TRUSTLAKE_DATA)" >&2; exit 1; }
if [ -z "${LAKE:-}" ]; then
	LAKE=$(mktemp -d "${TMPDIR:-/tmp}/trustlake-tau-bench.XXXXXX")/lake
	trap 'rm -rf "$(dirname "$LAKE")"' EXIT
fi
"$BIN" --lake "$LAKE" ingest tau-bench "$FILE" >&2
"$BIN" --lake "$LAKE" trust "$@"
