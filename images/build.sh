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
# Building the python image needs debootstrap (make deps); without it, warn
# and go on: the tests that need the image name it as missing.
if docker image inspect trustlake-python:latest >/dev/null 2>&1 || command -v debootstrap >/dev/null; then
	"$here/python/build.sh"
else
	echo "sandbox images: WARNING: debootstrap not installed (run make deps); trustlake-python not built" >&2
fi
echo "sandbox images: done in $(($(date +%s) - start))s"
