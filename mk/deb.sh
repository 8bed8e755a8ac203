#!/bin/bash
# `make deb`: the Debian packages of debian/ built from a copy of the tree's files (tracked and untracked, not
# ignored: what a clean clone plus your edits has), then checked with lintian.
#   mk/deb.sh [OUTDIR]     (default build/deb): OUTDIR/stackmap-VERSION/ is the copy, the packages, the
#                          .changes and .buildinfo files land in OUTDIR, the -dbgsym packages in OUTDIR/dbgsym,
#                          lintian's output in OUTDIR/lintian.txt
# Fails on any lintian error or warning (overrides, each with its reason, are in debian/*.lintian-overrides).
# Missing build dependencies are installed when run as root (apt-get update once, apt-get build-dep, lintian),
# else named. Builds for the suite of the machine it runs on (bookworm, trixie): tests/test_deb.sh runs it in
# a root of each.  DEB_BUILD_PROFILES=pkg.stackmap.nokshark leaves out kernelshark-plugin-stackmap and its Qt
# build dependencies (tests/test_deb.sh does).
# DEB_HOST_ARCH=arm64 (another architecture than this machine's): the packages for it, cross-built with dpkg's
# cross support (dpkg-buildpackage -a arm64, crossbuild-essential-arm64 and the build dependencies of that
# architecture; default OUTDIR build/deb-arm64). dpkg must know the architecture first: it is not added here
# (dpkg --add-architecture arm64 && apt-get update, as root). tests/test_deb_arm64.sh builds them so.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_ARCH=$(dpkg --print-architecture)
HOST_ARCH=${DEB_HOST_ARCH:-$BUILD_ARCH}
# dpkg-buildpackage's and apt-get build-dep's arguments for a cross build.
CROSS=()
[[ $HOST_ARCH == "$BUILD_ARCH" ]] || CROSS=(-a "$HOST_ARCH")
OUT=$(realpath -m "${1:-$ROOT/build/deb${CROSS:+-$HOST_ARCH}}")
VERSION=$(sed -n 's/^#define STACKMAP_VERSION\t*"\(.*\)"/\1/p' "$ROOT/include/stackmap/version.h")
SRC=$OUT/stackmap-$VERSION

die() { echo "make deb: $*" >&2; exit 1; }

# Build dependencies (debian/control), lintian and git: installed if missing and root, else named.
deps() {
	local missing=() tools=(dpkg-dev git lintian)
	command -v git >/dev/null || missing+=(git)
	command -v lintian >/dev/null || missing+=(lintian)
	command -v dpkg-checkbuilddeps >/dev/null || missing+=(dpkg-dev)
	if ((${#CROSS[@]})); then
		dpkg --print-foreign-architectures | grep -qx "$HOST_ARCH" ||
			die "dpkg does not know $HOST_ARCH: dpkg --add-architecture $HOST_ARCH && apt-get update (as root), then again"
		tools+=("crossbuild-essential-$HOST_ARCH")
		dpkg-query -W -f '${db:Status-Status}' "crossbuild-essential-$HOST_ARCH" 2>/dev/null | grep -qx installed ||
			missing+=("crossbuild-essential-$HOST_ARCH")
	fi
	if ((${#missing[@]} == 0)) && (cd "$ROOT" && dpkg-checkbuilddeps "${CROSS[@]}" 2>/dev/null); then
		return 0
	fi
	((EUID == 0)) ||
		die "missing build dependencies: run as root, or: apt-get build-dep ${CROSS[*]} $ROOT && apt-get install ${tools[*]}"
	echo "make deb: installing the build dependencies of debian/control${CROSS:+ for $HOST_ARCH}, ${tools[*]}"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${tools[@]}"
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q "${CROSS[@]}" "$ROOT"
}

# The tree's files, as git lists them (a file deleted in the work tree is left out).
copy_tree() {
	rm -rf "$OUT"
	mkdir -p "$SRC"
	git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$ROOT" && xargs -0 sh -c 'for f; do [ ! -e "$f" ] || cp --parents -P "$f" "$0"; done' "$SRC")
}

main() {
	local changelog
	deps
	changelog=$(cd "$ROOT" && dpkg-parsechangelog -S Version)
	[[ $changelog == "$VERSION" ]] ||
		die "debian/changelog is at $changelog, include/stackmap/version.h at $VERSION: add a changelog entry (dch -v $VERSION)"
	copy_tree
	(cd "$SRC" && dpkg-buildpackage -us -uc -b "${CROSS[@]}") >"$OUT/build.log" 2>&1 ||
		{ tail -n 30 "$OUT/build.log" >&2; die "dpkg-buildpackage failed (log: $OUT/build.log)"; }
	lintian --fail-on error,warning --display-info "$OUT"/stackmap_"$VERSION"_*.changes >"$OUT/lintian.txt" 2>&1 ||
		{ cat "$OUT/lintian.txt" >&2; die "lintian: errors or warnings above (in $OUT/lintian.txt)"; }
	echo "make deb: $(lintian --version): no error, no warning ($(grep -c '^[IP]:' "$OUT/lintian.txt" || true) informational tags in $OUT/lintian.txt)"
	# The debug symbols apart, so that `apt install ./build/deb/*.deb` installs the packages.
	mkdir -p "$OUT/dbgsym"
	mv "$OUT"/*-dbgsym_*.deb "$OUT/dbgsym/"
	ls "$OUT"/*.deb
}

main "$@"
