#!/bin/bash
# The module on a debug kernel (KASAN inline, lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, UBSAN, DEBUG_LIST;
# tests/kernels/debug-kernel.sh builds it from Debian's source, about 11 minutes the first time; STACKMAP_KERNEL
# names which: debug, of linux-source-6.1, the default, or debug-newest, of the newest kernel's source):
#   splat       a deliberately broken build (KCFLAGS=-DSTACKMAP_TEST_SLEEP_IN_PROBE: might_sleep() in the hot
#               path) attached to sched:sched_switch for one `trace-cmd record`: the harness must FAIL the run
#               with the kernel's "BUG: sleeping function called from invalid context" in stackmap_record.
#               Proves the kernel checks and run-vm.sh catches what they report.
#   norcu       the module as it was before FTRACE_OPS_FL_RCU (KCFLAGS=-DSTACKMAP_TEST_NO_FTRACE_RCU), in the
#               idle/reset race of guest/debug.sh (arch_cpu_idle attached, the map reset every 50 ms): the run must
#               fail with a WARNING in stackmap_ftrace_func, so the phase really catches that race.
#   clean       the real module, the same recording, the idle/reset race and the rmmod race (parameters
#               written from two loops while the module unloads, 5 rounds): the run must pass with no report,
#               and some writes must have lost the race to rmmod (ENODEV), so that the race was run.
# Usage: [STACKMAP_KERNEL=debug-newest] tests/vm/test_debug.sh   (as root; writes build/vm-debug/, or
#        build/vm-debug-newest/)
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
KERNEL=${STACKMAP_KERNEL:-debug}
OUT=${OUT:-$ROOT/build/vm-$KERNEL}
# A guest run on this kernel takes 10-15 times as long as on Debian's (NOTES: e2e 196 s instead of 15).
TIMEOUT=${TIMEOUT:-1200}
# The broken builds report within a minute of boot and may then hang the guest (the pre-fix module did, and a
# report printed under the runqueue lock can): no need to wait 20 minutes, nor to boot again, for that.
BROKEN_TIMEOUT=${BROKEN_TIMEOUT:-480}
SLEEP_BUG='BUG: sleeping function called from invalid context'

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

# boot NAME KO TIMEOUT PHASES...: one boot on the debug kernel; run-vm's exit code in $RC.
boot() {
	local name=$1 ko=$2 timeout=$3 t0=$SECONDS
	shift 3
	rm -rf "${OUT:?}/${name:?}"
	mkdir -p "$OUT/$name"
	echo "$*" >"$OUT/$name-phases"
	cp "$OUT/$name-phases" "$OUT/phases"
	RC=0
	run_vm debug "$OUT/$name" --bzimage "$BZIMAGE" --module "$ko" \
		--extra "$OUT/phases" --timeout "$timeout" --hung-retries "${HUNG_RETRIES:-1}" \
		${STOP_ON_REPORT:+--stop-on-report "$STOP_ON_REPORT"} \
		--smp 2 --mem 2G \
		2>"$OUT/$name/run-vm.log" || RC=$?
	say "$name: run-vm exited $RC after $((SECONDS - t0)) s ($OUT/$name/console.log)"
}

# The broken module: the run fails, and for the reason it should: run-vm names the report. The guest may hang
# after it (a printk under the runqueue lock: it ran into the 480 s timeout in a full run), so run-vm stops it
# 30 s after the report (--stop-on-report), or else fails on the timeout and the console has it.
check_splat() {
	local log=$OUT/splat/console.log how
	((RC == 125)) || fail splat "run-vm exited $RC, not 125 (a kernel report) with a module that sleeps in its probe"
	tr -d '\r' <"$log" | grep -A40 -m1 "$SLEEP_BUG" | grep -q 'stackmap_record' ||
		fail splat "no '$SLEEP_BUG' naming stackmap_record: $(grep -m1 'run-vm: .* failed' "$OUT/splat/run-vm.log")"
	how=$(grep -m1 -o 'run-vm: [a-z-]* failed: .\{0,60\}' "$OUT/splat/run-vm.log")
	say "splat: $how...; the console: $(tr -d '\r' <"$log" | grep -m1 -o "$SLEEP_BUG.*")"
}

# The callback outside RCU (before the fix): the idle/reset phase must show it. That module also hangs this
# guest a few warnings later, so the run fails by the report or by the (shorter) timeout; the console tells.
check_norcu() {
	local log=$OUT/norcu/console.log
	if [[ -f $OUT/norcu/idle_reset/skipped.txt ]]; then
		((RC == 0)) || fail norcu "run-vm exited $RC with the idle phase skipped"
		say "norcu: not run on $KERNEL: $(cat "$OUT/norcu/idle_reset/skipped.txt"), so no ftrace callback runs outside RCU there"
		return
	fi
	((RC == 125)) || fail norcu "run-vm exited $RC, not 125, with the callback running outside RCU"
	tr -d '\r' <"$log" | grep -q 'WARNING: CPU: .* stackmap_ftrace_func' ||
		fail norcu "run-vm failed, but with no warning in stackmap_ftrace_func: $(grep -m1 'run-vm: .* failed' "$OUT/norcu/run-vm.log")"
	say "norcu: the harness failed the run on: $(tr -d '\r' <"$log" |
		grep -m1 -o 'WARNING: CPU: .* stackmap_ftrace_func.*')"
}

# idle_figures DIR: what the idle_reset phase did, or why it did nothing.
idle_figures() {
	if [[ -f $1/skipped.txt ]]; then
		echo "idle_reset skipped ($(cat "$1/skipped.txt"))"
		return
	fi
	local entries
	entries=$(cat "$1/function_entries.txt")
	# 0 is what the fix gives where the idle function runs with RCU not watching (6.1's arch_cpu_idle):
	# FTRACE_OPS_FL_RCU keeps the callback out of it.
	if ((entries > 0)); then
		entries="$entries idle function entries"
	else
		entries="0 idle function entries (RCU is not watching there: FTRACE_OPS_FL_RCU keeps the callback out)"
	fi
	echo "idle_reset $(cat "$1/resets.txt") resets, $(stat_value lookups "$1/stats.txt") lookups, $entries"
}

# race_figures DIR PHASE: the parameter writes of DIR/writes.txt (guest's rmmod_rounds) and how many met the
# module's exit; fails PHASE when none did.
race_figures() {
	local writes enodev
	read -r writes enodev <"$1/writes.txt"
	((enodev > 0)) || fail clean "$2: no parameter write of $writes met the module's exit (ENODEV)"
	echo "$writes parameter writes, $enodev refused during rmmod"
}

# typed_figures DIR: what the typed phase did, or why it did nothing.
typed_figures() {
	local race
	if [[ -f $1/skipped.txt ]]; then
		echo "typed skipped ($(cat "$1/skipped.txt"))"
		return
	fi
	race=$(race_figures "$1/rmmod_race" typed) || return 1
	echo "typed probes: record $(stat_value lookups "$1/stats.txt") stacks, rmmod while recording, $race"
}

check_clean() {
	local race typed
	((RC == 0)) || fail clean "run-vm exited $RC with the real module: $(grep -m1 'run-vm: .* failed' "$OUT/clean/run-vm.log")"
	# Assigned first: a failure inside $(...) among echo's arguments would not stop the test.
	race=$(race_figures "$OUT/clean/rmmod_race" rmmod_race)
	typed=$(typed_figures "$OUT/clean/typed")
	say "clean: record $(stat_value lookups "$OUT/clean/record/stats.txt") stacks;" \
		"$(idle_figures "$OUT/clean/idle_reset"); rmmod_race $race; $typed; no kernel report"
}

main() {
	[[ $KERNEL == debug* ]] || fail kernel "STACKMAP_KERNEL=$KERNEL is no debug kernel (debug, debug-newest)"
	KDIR=$("$ROOT/tests/kernels.sh" kdir "$KERNEL") || fail kernel "tests/kernels.sh kdir $KERNEL"
	# debug-kernel.sh's directory: linux/ (KDIR) and bzImage beside it.
	BZIMAGE=$(dirname "$KDIR")/bzImage
	say "kernel $KERNEL ($BZIMAGE)"
	mkdir -p "$OUT"
	build_module "$OUT/kmod-clean"
	build_module "$OUT/kmod-splat" KCFLAGS=-DSTACKMAP_TEST_SLEEP_IN_PROBE
	build_module "$OUT/kmod-norcu" KCFLAGS=-DSTACKMAP_TEST_NO_FTRACE_RCU
	[[ -z $(modinfo -F stackmap_test "$OUT/kmod-clean/kmod/stackmap.ko") ]] ||
		fail "module build" "the normal build carries the test-only code"
	[[ $(modinfo -F stackmap_test "$OUT/kmod-splat/kmod/stackmap.ko") == sleep_in_probe ]] ||
		fail "module build" "the splat build lacks STACKMAP_TEST_SLEEP_IN_PROBE"
	[[ $(modinfo -F stackmap_test "$OUT/kmod-norcu/kmod/stackmap.ko") == no_ftrace_rcu ]] ||
		fail "module build" "the norcu build lacks STACKMAP_TEST_NO_FTRACE_RCU"
	STOP_ON_REPORT=30 HUNG_RETRIES=0 boot splat "$OUT/kmod-splat/kmod/stackmap.ko" "$BROKEN_TIMEOUT" record
	check_splat
	STOP_ON_REPORT=30 HUNG_RETRIES=0 boot norcu "$OUT/kmod-norcu/kmod/stackmap.ko" "$BROKEN_TIMEOUT" idle_reset
	check_norcu
	boot clean "$OUT/kmod-clean/kmod/stackmap.ko" "$TIMEOUT" record idle_reset rmmod_race typed
	check_clean
	say "ok"
}

main "$@"
