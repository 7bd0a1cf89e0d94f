#!/usr/bin/env bash
# Build the sandbox images locally, without a registry: trustlake-check (FROM
# scratch + static binary) and trustlake-python (debootstrap from the machine's
# apt mirror, then docker import). Both steps are idempotent. Called by
# `make sandbox-images`; needs root (debootstrap) and a running Docker Engine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! docker info >/dev/null 2>&1; then
	echo "sandbox images: no Docker Engine answers (start dockerd)" >&2
	exit 1
fi
start=$(date +%s)
"$here/check/build.sh"
"$here/python/build.sh"
echo "sandbox images: done in $(($(date +%s) - start))s"
