#!/usr/bin/env bash
# The notebook example end to end: a simulated lake, the FPR table exported to
# Parquet with fpr.sql, and fpr.ipynb executed headless with nbconvert (the
# executed copy and the plot land in OUT_DIR, default examples/notebook/out).
# Needs bin/trustlake (make build) and the venv (make venv).
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${TRUSTLAKE:-bin/trustlake}
OUT=${1:-examples/notebook/out}
rm -rf "$OUT" && mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
export TRUSTLAKE_LAKE="$OUT/lake"
"$T" gen --out "$OUT/data" --tasks 60 --episodes-per-task 2 >/dev/null
"$T" ingest episodes "$OUT/data/episodes" >/dev/null
"$T" ingest verdicts "$OUT/data/verdicts/"*.jsonl >/dev/null
"$T" export --query "$(cat examples/notebook/fpr.sql)" --format parquet --out "$OUT/fpr.parquet"
FPR_EXPORT="$OUT/fpr.parquet" FPR_PLOT="$OUT/fpr.png" \
	.venv/bin/jupyter nbconvert --execute --to notebook --output-dir "$OUT" --output fpr.executed.ipynb examples/notebook/fpr.ipynb
echo "plot: $OUT/fpr.png; executed notebook: $OUT/fpr.executed.ipynb"
