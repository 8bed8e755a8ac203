#!/bin/bash
# The arm64 decode of the arm64 fixture (issue #39 item 3): the arm64 fgdecode and plugin (tests/arm64/build.sh;
# run under qemu-user by tests/arm64/fgdecode, the plugin by bookworm's arm64 tests/arm64/trace-cmd report) run
# every decode of tests/decoder/cross_arch_lib.sh on tests/fixtures/traces/arm64/views.dat, its
# views.stack_map.txt (map) and the x86-64 views.dat (diff), and the outputs go to tests/fixtures/traces/arm64/decode/: NAME as fgdecode wrote it when under 32 KB (readable in a
# review), NAME.xz above; stderr holds every decode's standard error; BUILD says which build made them (the
# commit, compiler, sysroot packages, qemu). tests/decoder/test_cross_arch.sh (make check, suite
# decoder-cross-arch) compares the host's decode with these. Run it again after a deliberate change of an
# output (about 55 s: 16 s to build from scratch, 38 s of qemu-user for the 26 decodes).
# Usage: tests/arm64/decode-fixture.sh [DIR]   (default tests/fixtures/traces/arm64/decode)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURE=$ROOT/tests/fixtures/traces/arm64
DEST=${1:-$FIXTURE/decode}
# shellcheck source=tests/decoder/cross_arch_lib.sh
. "$ROOT/tests/decoder/cross_arch_lib.sh"

"$ROOT/tests/arm64/build.sh" >/dev/null
SYSROOT=$("$ROOT/tests/kernels.sh" arm64-sysroot)
export ARM64_SYSROOT=$SYSROOT
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

export CROSS_ARCH_FGDECODE=$ROOT/tests/arm64/fgdecode CROSS_ARCH_TRACECMD=$ROOT/tests/arm64/trace-cmd
export CROSS_ARCH_PLUGIN_DIR=$ROOT/build/arm64/plugin
start=$SECONDS
cross_arch_decode "$TMP" "$FIXTURE/views.dat" views.stack_map.txt ../views.dat
took=$((SECONDS - start))

rm -rf "$DEST.tmp"
mkdir -p "$DEST.tmp"
for f in "$TMP"/*; do
	if (($(stat -c %s "$f") < 32768)); then
		cp "$f" "$DEST.tmp/"
	else
		xz -9 -c "$f" >"$DEST.tmp/${f##*/}.xz"
	fi
done
FG=$ROOT/build/arm64/decoder/fgdecode
{
	echo "# The arm64 fixture decoded by the arm64 fgdecode under qemu-user: tests/arm64/decode-fixture.sh"
	echo "date: $(date -u '+%F %T UTC')"
	echo "tree: $(git -C "$ROOT" describe --always --dirty --abbrev=12) ($(git -C "$ROOT" log -1 --format=%s))"
	echo "fgdecode: $(ARM64_SYSROOT=$SYSROOT "$ROOT/tests/arm64/fgdecode" --version), $(file -b "$FG" | cut -d, -f1-2)"
	echo "compiler: $(aarch64-linux-gnu-gcc --version | head -n 1), --sysroot (tests/kernels.sh arm64-sysroot),"
	echo "          make -C decoder OUT=build/arm64/decoder, -C plugin OUT=build/arm64/plugin (tests/arm64/build.sh):"
	echo "          default CFLAGS (-O2 -g)"
	echo "report: the sysroot's trace-cmd report (tests/arm64/trace-cmd), TRACEEVENT_PLUGIN_DIR=build/arm64/plugin"
	echo "run by: $(qemu-aarch64-static --version | head -n 1) -L SYSROOT on $(uname -m), $took s for the decodes"
	echo "trace: tests/fixtures/traces/arm64/views.dat sha256 $(sha256sum <"$FIXTURE/views.dat" | cut -c1-16)...,"
	echo "       views.stack_map.txt sha256 $(sha256sum <"$FIXTURE/views.stack_map.txt" | cut -c1-16)...,"
	echo "       ../views.dat (x86-64, for diff) sha256 $(sha256sum <"$FIXTURE/../views.dat" | cut -c1-16)..."
	echo "sysroot: bookworm arm64 packages (made $(cat "$SYSROOT/.done")), what the programs run with:"
	grep -v -e '-dev:' -e '^rpcsvc-proto' -e '^gcc-12-base' -e '^libc-dev-bin' "$SYSROOT/.packages" | sed 's/^/  /'
	echo "decodes (tests/decoder/cross_arch_lib.sh; T views.dat, L views.stack_map.txt, X ../views.dat;"
	echo "report: trace-cmd report with the plugin):"
	grep -v '^$' <<<"$CROSS_ARCH_DECODES" | sed 's/^/  /'
} >"$DEST.tmp/BUILD"
rm -rf "$DEST"
mv "$DEST.tmp" "$DEST"
echo "decode-fixture: $(find "$DEST" -type f | wc -l) files, $(du -sk "$DEST" | cut -f1) KB in ${DEST#"$ROOT"/} ($took s of qemu-user)"
