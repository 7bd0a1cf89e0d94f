#!/usr/bin/env bash
# Build the trustlake-check image: FROM scratch + the static trustlake-check binary.
#
# Usage: images/check/build.sh [TAG]        (default trustlake-check:latest)
# Run from anywhere inside the repository. Needs Go and a Docker Engine, no registry.
# Idempotent: the image carries the binary's sha256 as a label and is rebuilt only
# when the binary changed (FORCE=1 always rebuilds).
set -euo pipefail

tag="${1:-trustlake-check:latest}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
label=trustlake.check.sha256

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$ctx/trustlake-check" ./cmd/trustlake-check)
cp "$here/Dockerfile" "$ctx/Dockerfile"
sum="$(sha256sum "$ctx/trustlake-check" | cut -d' ' -f1)"

have="$(docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$tag" 2>/dev/null || true)"
if [[ "${FORCE:-0}" != 1 && "$have" == "$sum" ]]; then
	echo "check image: $tag is up to date, skipping"
	exit 0
fi
old="$(docker image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)"
# The classic builder needs no BuildKit/buildx and no registry for FROM scratch.
DOCKER_BUILDKIT=0 docker build --quiet --network none --label "$label=$sum" -t "$tag" "$ctx" >/dev/null 2>"$ctx/build.err" || {
	cat "$ctx/build.err" >&2
	exit 1
}
echo "check image: built $tag"
# The previous build lost its tag: remove it rather than leave a dangling
# <none> image (it stays while a container still uses it).
new="$(docker image inspect --format '{{.Id}}' "$tag")"
if [[ -n "$old" && "$old" != "$new" ]]; then
	docker image rm "$old" >/dev/null 2>&1 || true
fi
