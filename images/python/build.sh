#!/usr/bin/env bash
# Build the trustlake-python image (Debian minbase + python3 + python3-odf) without a
# registry: debootstrap from the machine's own apt mirror, then `docker import`.
#
# Usage: images/python/build.sh [TAG]        (default trustlake-python:latest)
# Env:   FORCE=1 rebuilds even when the image exists.
#        SUITE / MIRROR override what is read from the apt configuration;
#        APT_DIR (default /etc/apt) is where that configuration is read.
#        PRINT_SOURCE=1 only prints "SUITE MIRROR" and exits (for tests).
# Needs root (debootstrap) and a Docker Engine. Idempotent: exits early when TAG exists.
set -euo pipefail

tag="${1:-trustlake-python:latest}"
packages="python3,python3-odf"
apt_dir="${APT_DIR:-/etc/apt}"

if [[ "${PRINT_SOURCE:-0}" != 1 &&  "${FORCE:-0}" != 1 ]] && docker image inspect "$tag" >/dev/null 2>&1; then
	echo "python image: $tag exists, skipping (FORCE=1 rebuilds)"
	exit 0
fi

# apt_sources prints one "SUITE MIRROR" line per deb entry of the machine's apt
# configuration (deb822 *.sources, then one-line sources.list and *.list).
# Security and -updates/-backports suites are skipped: debootstrap needs the base suite.
apt_sources() {
	local f
	for f in "$apt_dir"/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		awk '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && enabled !~ /^no/ && uris != "" && suites != "") {
					n = split(suites, s, " "); split(uris, u, " ")
					for (i = 1; i <= n; i++) if (s[i] !~ /-/ && s[i] !~ /\//) { print s[i], u[1]; break }
				}
				types = ""; uris = ""; suites = ""; enabled = ""
			}
			/^[[:space:]]*#/ { next }
			/^[[:space:]]*$/ { flush(); next }
			{ key = tolower($1); $1 = ""; sub(/^ +/, "") }
			key == "types:"   { types = $0 }
			key == "uris:"    { uris = $0 }
			key == "suites:"  { suites = $0 }
			key == "enabled:" { enabled = tolower($0) }
			END { flush() }
		' "$f"
	done
	local lists=()
	[[ -f "$apt_dir"/sources.list ]] && lists+=("$apt_dir"/sources.list)
	for f in "$apt_dir"/sources.list.d/*.list; do [[ -f $f ]] && lists+=("$f"); done
	if ((${#lists[@]})); then
		# deb [options] URI SUITE COMPONENTS...
		awk '$1 == "deb" {
			i = 2; if ($i ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
			if ($(i+1) != "" && $(i+1) !~ /-/ && $(i+1) !~ /\//) print $(i+1), $i
		}' "${lists[@]}"
	fi
}

# apt_source picks the Debian archive itself (a URI ending in /debian) over
# third-party repositories, else the first entry.
apt_source() {
	apt_sources | awk '
		NR == 1 { first = $0 }
		$2 ~ /\/debian\/?$/ { print; found = 1; exit }
		END { if (!found && first != "") print first }'
}

read -r suite mirror < <(apt_source) || true
suite="${SUITE:-$suite}"
mirror="${MIRROR:-$mirror}"
if [[ -z "$suite" || -z "$mirror" ]]; then
	echo "python image: no Debian suite/mirror found in $apt_dir (set SUITE and MIRROR)" >&2
	exit 1
fi
if [[ "${PRINT_SOURCE:-0}" == 1 ]]; then
	echo "$suite $mirror"
	exit 0
fi
if [[ $(id -u) != 0 ]]; then
	echo "python image: debootstrap needs root" >&2
	exit 1
fi

if ! command -v debootstrap >/dev/null; then
	echo "python image: debootstrap not installed (make deps installs it)" >&2
	exit 1
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
