#!/usr/bin/env bash
# Build the sandbox images locally, without a registry: trustlake-check (FROM
# scratch + static binary) and trustlake-python (debootstrap from the machine's
# apt mirror, then docker import). Both steps are idempotent. Called by
# `make sandbox-images`; needs root (debootstrap) and a running Docker Engine
# (without an engine it warns and exits 0, so `make test` still runs the rest).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v docker >/dev/null || ! docker info >/dev/null 2>&1; then
	# Nothing to build into; the Docker tests skip naming what is missing.
	echo "sandbox images: WARNING: no Docker Engine answers (start dockerd); images not built" >&2
	exit 0
fi
start=$(date +%s)
"$here/check/build.sh"
"$here/python/build.sh"
echo "sandbox images: done in $(($(date +%s) - start))s"
