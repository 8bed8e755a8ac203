#!/bin/bash
# The module on a debug kernel (KASAN inline, lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, UBSAN, DEBUG_LIST;
# tests/kernels/debug-kernel.sh builds it from Debian's linux-source-6.1, about 25 minutes the first time):
#   splat       a deliberately broken build (KCFLAGS=-DSTACKMAP_TEST_SLEEP_IN_PROBE: might_sleep() in the hot
#               path) attached to sched:sched_switch for one `trace-cmd record`: the harness must FAIL the run
#               with the kernel's "BUG: sleeping function called from invalid context" in stackmap_record.
#               Proves the kernel checks and run-vm.sh catches what they report.
#   clean       the real module, the same recording and the idle/reset race (guest/debug.sh): the run must pass
#               with no report at all.
# Usage: tests/vm/test_debug.sh   (as root; writes build/vm-debug/)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/build/vm-debug}
# A guest run on this kernel takes 10-15 times as long as on Debian's (NOTES: e2e 196 s instead of 15).
TIMEOUT=${TIMEOUT:-1200}
SLEEP_BUG='BUG: sleeping function called from invalid context'

fail() {
	echo "test_debug: $1 failed: $2" >&2
	exit 1
}

# build_module DIR [MAKE-ARGS]: stackmap.ko for the debug tree in DIR/kmod (include/ beside it, as in the repo).
build_module() {
	local dir=$1
	shift
	mkdir -p "$dir/kmod" "$dir/include/stackmap"
	cp -p "$ROOT"/kmod/Kbuild "$ROOT"/kmod/*.[ch] "$dir/kmod/"
	rm -f "$dir/kmod/stackmap.mod.c"
	cp -p "$ROOT"/include/stackmap/*.h "$dir/include/stackmap/"
	make -s -C "$KDIR" M="$dir/kmod" "$@" modules >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; fail "module build" "make -C $KDIR M=$dir/kmod $*"; }
}

# run_guest NAME KO PHASES...: one boot on the debug kernel; run-vm's exit code in $RC.
run_guest() {
	local name=$1 ko=$2 t0=$SECONDS
	shift 2
	rm -rf "${OUT:?}/${name:?}"
	mkdir -p "$OUT/$name"
	echo "$*" >"$OUT/$name-phases"
	cp "$OUT/$name-phases" "$OUT/phases"
	RC=0
	"$ROOT/tests/vm/run-vm.sh" --bzimage "$BZIMAGE" --module "$ko" --guest-script "$ROOT/tests/vm/guest/debug.sh" \
		--extra "$OUT/phases" --share "$OUT/$name" --timeout "$TIMEOUT" --smp 2 --mem 2G \
		2>"$OUT/$name/run-vm.log" || RC=$?
	echo "test_debug: $name: run-vm exited $RC after $((SECONDS - t0)) s ($OUT/$name/console.log)"
}

# The broken module: the run fails, and for the reason it should.
check_splat() {
	local log=$OUT/splat/console.log
	((RC == 125)) || fail splat "run-vm exited $RC, not 125 (a kernel report) with a module that sleeps in its probe"
	grep -q "run-vm: kernel failed: console shows: .*$SLEEP_BUG" "$OUT/splat/run-vm.log" ||
		fail splat "run-vm failed, but not on '$SLEEP_BUG': $(grep -m1 'run-vm: .* failed' "$OUT/splat/run-vm.log")"
	tr -d '\r' <"$log" | grep -A40 -m1 "$SLEEP_BUG" | grep -q 'stackmap_record' ||
		fail splat "the report does not name stackmap_record"
	echo "test_debug: splat: the harness failed the run on: $(tr -d '\r' <"$log" | grep -m1 -o "$SLEEP_BUG.*")"
}

check_clean() {
	((RC == 0)) || fail clean "run-vm exited $RC with the real module: $(grep -m1 'run-vm: .* failed' "$OUT/clean/run-vm.log")"
	echo "test_debug: clean: record $(awk '$1 == "lookups" { print $2 }' "$OUT/clean/record/stats.txt") stacks;" \
		"idle_reset $(cat "$OUT/clean/idle_reset/resets.txt") resets," \
		"$(awk '$1 == "lookups" { print $2 }' "$OUT/clean/idle_reset/stats.txt") lookups," \
		"$(cat "$OUT/clean/idle_reset/function_entries.txt") arch_cpu_idle entries; no kernel report"
}

main() {
	local dir
	dir=$("$ROOT/tests/kernels/debug-kernel.sh") || fail kernel "tests/kernels/debug-kernel.sh"
	KDIR=$dir/linux BZIMAGE=$dir/bzImage
	mkdir -p "$OUT"
	build_module "$OUT/kmod-clean"
	build_module "$OUT/kmod-splat" KCFLAGS=-DSTACKMAP_TEST_SLEEP_IN_PROBE
	[[ -z $(modinfo -F stackmap_test "$OUT/kmod-clean/kmod/stackmap.ko") ]] ||
		fail "module build" "the normal build carries the test-only code"
	[[ $(modinfo -F stackmap_test "$OUT/kmod-splat/kmod/stackmap.ko") == sleep_in_probe ]] ||
		fail "module build" "the splat build lacks STACKMAP_TEST_SLEEP_IN_PROBE"
	run_guest splat "$OUT/kmod-splat/kmod/stackmap.ko" record
	check_splat
	run_guest clean "$OUT/kmod-clean/kmod/stackmap.ko" record idle_reset
	check_clean
	echo "test_debug: ok"
}

main "$@"
