#!/usr/bin/env bash
# Build the trustlake-python image (Debian minbase + python3 + python3-odf) without a
# registry: debootstrap from the machine's own apt mirror, then `docker import`.
#
# Usage: images/python/build.sh [TAG]        (default trustlake-python:latest)
# Env:   FORCE=1 rebuilds even when the image exists.
#        SUITE / MIRROR override what is read from the apt configuration.
# Needs root (debootstrap) and a Docker Engine. Idempotent: exits early when TAG exists.
set -euo pipefail

tag="${1:-trustlake-python:latest}"
packages="python3,python3-odf"

if [[ "${FORCE:-0}" != 1 ]] && docker image inspect "$tag" >/dev/null 2>&1; then
	echo "python image: $tag exists, skipping (FORCE=1 rebuilds)"
	exit 0
fi
if [[ $(id -u) != 0 ]]; then
	echo "python image: debootstrap needs root" >&2
	exit 1
fi

# apt_source prints "SUITE MIRROR" for the first Debian main-archive entry of the machine's
# apt configuration (deb822 *.sources or one-line sources.list); security and
# -updates/-backports suites are skipped because debootstrap needs the base suite.
apt_source() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && uris != "" && suites != "") {
					n = split(suites, s, " ")
					for (i = 1; i <= n; i++) if (s[i] !~ /-/ && s[i] !~ /\//) {
						split(uris, u, " "); print s[i], u[1]; found = 1; exit
					}
				}
				types = ""; uris = ""; suites = ""
			}
			/^[[:space:]]*#/ { next }
			/^[[:space:]]*$/ { flush(); next }
			tolower($1) == "types:"  { $1 = ""; types = $0 }
			tolower($1) == "uris:"   { $1 = ""; sub(/^ +/, ""); uris = $0 }
			tolower($1) == "suites:" { $1 = ""; sub(/^ +/, ""); suites = $0 }
			END { if (!found) flush() }
		' "$f" | head -n1
	done
	local lists=()
	[[ -f /etc/apt/sources.list ]] && lists+=(/etc/apt/sources.list)
	for f in /etc/apt/sources.list.d/*.list; do [[ -f $f ]] && lists+=("$f"); done
	if ((${#lists[@]})); then
		# deb [options] URI SUITE COMPONENTS...
		awk '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			if ($(i+1) !~ /-/ && $(i+1) !~ /\//) { print $(i+1), $i; exit }
		}' "${lists[@]}"
	fi
}

read -r suite mirror < <(apt_source | head -n1) || true
suite="${SUITE:-$suite}"
mirror="${MIRROR:-$mirror}"
if [[ -z "$suite" || -z "$mirror" ]]; then
	echo "python image: no Debian suite/mirror found in /etc/apt (set SUITE and MIRROR)" >&2
	exit 1
fi

if ! command -v debootstrap >/dev/null; then
	echo "python image: installing debootstrap"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work="$(mktemp -d /var/tmp/trustlake-python.XXXXXX)"
trap 'rm -rf --one-file-system "$work"' EXIT
root="$work/root"
start=$(date +%s)
echo "python image: debootstrap $suite from the apt mirror into $root"
debootstrap --variant=minbase --include="$packages" "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
	tail -n 30 "$work/debootstrap.log" >&2
	exit 1
}
# Slim the tree: package caches and docs are not needed to run verifiers.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
	"$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*
chroot "$root" /usr/bin/python3 -c "import odf.opendocument" || { echo "python image: python3-odf not importable" >&2; exit 1; }

tar --numeric-owner -C "$root" -c . | docker import \
	--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
	--change 'ENV LANG=C.UTF-8' \
	--change 'USER 65534:65534' \
	--change 'WORKDIR /tmp' \
	--change 'CMD ["/usr/bin/python3"]' \
	- "$tag" >/dev/null
echo "python image: built $tag in $(($(date +%s) - start))s"
