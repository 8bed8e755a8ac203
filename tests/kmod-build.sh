#!/bin/bash
# Build stackmap.ko from scratch for one kernel of tests/kernels.sh (STACKMAP_KERNEL, or the argument), with
# W=1, and fail on any compiler or modpost warning. The kernel is fetched and unpacked first if it is not in
# the cache yet (that is where make check downloads 6.12 and 6.12-rt). Prints the build output and its time.
# Usage: [STACKMAP_KERNEL=NAME] tests/kmod-build.sh [NAME]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NAME=${1:-${STACKMAP_KERNEL:?STACKMAP_KERNEL or an argument names the kernel}}
OUT=$ROOT/build/kmod-$NAME
LOG=$ROOT/build/kmod-$NAME.build.log

fail() {
	echo "kmod-build: $NAME: $*" >&2
	exit 1
}

start=$EPOCHREALTIME
"$ROOT/tests/kernels.sh" prepare "$NAME" || fail "could not prepare the kernel"
prepared=$EPOCHREALTIME
rm -rf "$OUT"
mkdir -p "$ROOT/build"
ko=$("$ROOT/tests/kernels.sh" module "$NAME" W=1 2>"$LOG") || { cat "$LOG" >&2; fail "build failed"; }
done=$EPOCHREALTIME
grep -v -E '^make(\[[0-9]+\])?: (Entering|Leaving) directory' "$LOG"
# BTF is skipped, with a note, where the headers carry no vmlinux (Debian's 6.1).
if grep -i -E 'warning|error' "$LOG" >&2; then
	fail "warnings with W=1 (above; full log in $LOG)"
fi
[[ -s $ko ]] || fail "no $ko"
# A kernel built for in another release's root (newest: trixie's gcc-14 and glibc): make -C kmod on this host,
# where that compiler is missing, must stop with the one line saying what the kernel needs, not a compiler error.
root=$("$ROOT/tests/kernels.sh" build-root "$NAME")
kdir=$("$ROOT/tests/kernels.sh" kdir "$NAME")
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^ "]*\).*/\1/p' "$kdir/include/config/auto.conf" 2>/dev/null || true)
if [[ -n $root && -n $cc ]] && ! command -v "$cc" >/dev/null; then
	kver=$("$ROOT/tests/kernels.sh" kver "$NAME")
	out=$(make -C "$ROOT/kmod" KDIR="$kdir" KVER="$kver" 2>&1) && fail "built on this host without $cc"
	grep -q "^kmod: $kver wants the compiler $cc (its CONFIG_CC_VERSION_TEXT), which this host lacks" <<<"$out" ||
		fail "on this host, without $cc: no message saying so: $(tail -n 2 <<<"$out")"
	echo "kmod-build: $NAME: on this host, without $cc: $(grep -o '^kmod: .*which this host lacks' <<<"$out")"
fi
echo "kmod-build: $NAME: $(modinfo -F vermagic "$ko"): no warning with W=1" \
	"(prepare $(awk -v a="$start" -v b="$prepared" 'BEGIN { printf "%.1f", b - a }') s," \
	"build $(awk -v a="$prepared" -v b="$done" 'BEGIN { printf "%.1f", b - a }') s)"
