#!/bin/bash
# The arm64 fgdecode and libtraceevent plugin (issue #39, cross-architecture decoding), cross-compiled on this
# host with gcc-aarch64-linux-gnu against the arm64 sysroot of tests/kernels.sh (bookworm's -dev packages through
# the project's arm64 apt state; why a sysroot and not an arm64 root: the comment above arm64_sysroot there), with
# the tree's own Makefiles (OUT=, CC=, pkg-config pointed into the sysroot) and their default flags, as the host's
# build: build/arm64/decoder/fgdecode, build/arm64/plugin/plugin_stackmap.so. Idempotent: the sysroot is made
# once (STACKMAP_CACHE), make rebuilds what changed. Run the result with tests/arm64/fgdecode (qemu-user).
# Usage: tests/arm64/build.sh   prints the two paths; needs gcc-aarch64-linux-gnu (and qemu-user-static to run)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build/arm64
CROSS=aarch64-linux-gnu-

command -v "${CROSS}gcc" >/dev/null ||
	{ echo "arm64/build: no ${CROSS}gcc (apt-get install gcc-aarch64-linux-gnu)" >&2; exit 2; }
SYSROOT=$("$ROOT/tests/kernels.sh" arm64-sysroot)
# pkg-config reads the sysroot's .pc files only, and prefixes the paths they give with it.
export PKG_CONFIG_LIBDIR=$SYSROOT/usr/lib/aarch64-linux-gnu/pkgconfig:$SYSROOT/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$SYSROOT PKG_CONFIG_PATH=
MAKEARGS=(CC="${CROSS}gcc --sysroot=$SYSROOT" AR="${CROSS}ar" -j2)
make -C "$ROOT/decoder" OUT="$OUT/decoder" "${MAKEARGS[@]}" >&2
make -C "$ROOT/plugin" OUT="$OUT/plugin" "${MAKEARGS[@]}" >&2
for f in "$OUT/decoder/fgdecode" "$OUT/plugin/plugin_stackmap.so"; do
	file -b "$f" | grep -q 'ARM aarch64' || { echo "arm64/build: $f is not an arm64 ELF: $(file -b "$f")" >&2; exit 1; }
	echo "$f"
done
