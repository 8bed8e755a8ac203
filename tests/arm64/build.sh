#!/bin/bash
# The arm64 user-space builds (issue #39), cross-compiled on this host with gcc-aarch64-linux-gnu against the arm64
# sysroot of tests/kernels.sh (bookworm's -dev packages through the project's arm64 apt state; why a sysroot and not
# an arm64 root: the comment above arm64_sysroot there), with the tree's own Makefiles (OUT=, CC=, pkg-config
# pointed into the sysroot) and their default flags, as the host's build, each into build/arm64/DIR:
#   decoder      fgdecode (cross-architecture decoding; run it with tests/arm64/fgdecode, qemu-user)
#   plugin       plugin_stackmap.so
#   record       stackmap-snapshot, the record front end's (its trace-cmd is a shell script)
#   tests/bench  benchtool, the benchmarks' static helper in the arm64 guest (tests/bench/run.sh)
# Idempotent: the sysroot is made once (STACKMAP_CACHE), make rebuilds what changed.
# Usage: tests/arm64/build.sh [DIR...]   (default: decoder plugin) prints the path of each product; needs
#        gcc-aarch64-linux-gnu (and qemu-user-static to run them)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build/arm64
CROSS=aarch64-linux-gnu-
declare -A PRODUCT=([decoder]=fgdecode [plugin]=plugin_stackmap.so [record]=stackmap-snapshot
	[tests/bench]=benchtool)

(($#)) || set -- decoder plugin
for dir in "$@"; do
	[[ -n ${PRODUCT[$dir]:-} ]] || { echo "arm64/build: nothing to build in '$dir' (have: ${!PRODUCT[*]})" >&2; exit 2; }
done
command -v "${CROSS}gcc" >/dev/null ||
	{ echo "arm64/build: no ${CROSS}gcc (apt-get install gcc-aarch64-linux-gnu)" >&2; exit 2; }
SYSROOT=$("$ROOT/tests/kernels.sh" arm64-sysroot)
# pkg-config reads the sysroot's .pc files only, and prefixes the paths they give with it.
export PKG_CONFIG_LIBDIR=$SYSROOT/usr/lib/aarch64-linux-gnu/pkgconfig:$SYSROOT/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$SYSROOT PKG_CONFIG_PATH=
MAKEARGS=(CC="${CROSS}gcc --sysroot=$SYSROOT" AR="${CROSS}ar" -j2)
for dir in "$@"; do
	f=$OUT/$dir/${PRODUCT[$dir]}
	make -C "$ROOT/$dir" OUT="$OUT/$dir" "${MAKEARGS[@]}" "$f" >&2
	file -b "$f" | grep -q 'ARM aarch64' || { echo "arm64/build: $f is not an arm64 ELF: $(file -b "$f")" >&2; exit 1; }
	echo "$f"
done
