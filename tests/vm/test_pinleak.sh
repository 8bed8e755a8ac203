#!/bin/bash
# Every path that pins a task unpins it (#37 item 1): a typed-probe hit that ftrace's recursion lock refuses used to
# return before stackmap_unpin(), leaving its task migrate-disabled for good, so that its CPU could never go
# offline.  The module is built with KCFLAGS=-DSTACKMAP_TEST_FAIL_RECURSION (its debugfs test_fail_recursion
# injects such refusals; never in a normal build); guest/pinleak.sh records with typed probes, injects one
# refusal at the exec of a task on CPU 1, then takes CPU 1 offline within a bound and back online.  Checked
# here: the test build has the knob and the normal build has not, the offline completed, the injected drop is
# counted (dropped_recursion), and the recording decodes.
# Then: /proc/sys/kernel/ftrace_enabled cannot switch ftrace off under an attached typed probe (a pin would lose
# its record), nor a typed probe attach while it is off (the hook is FTRACE_OPS_FL_PERMANENT); from 7.x the sysctl
# never switches ftrace off.  Needs typed probes (6.5 and later); the pin checks need a kernel whose tracepoint
# probes run preemptible, where the module pins (7.x: Kbuild's STACKMAP_PREEMPTIBLE_PROBES); on another kernel
# (6.12) the ftrace_enabled check is what runs for real.
# Usage: tests/vm/test_pinleak.sh   (STACKMAP_KERNEL defaults to newest)
set -euo pipefail

export STACKMAP_KERNEL=${STACKMAP_KERNEL:-newest}
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-pinleak}"

stat_of() {
	stat_value "$1" "$OUT/share/stats.txt"
}

# build_test_module: stackmap.ko with the test knob, in $OUT/kmod-test/kmod (include/ beside it, as in the
# repo), built where tests/kernels.sh builds for this kernel (its build root, if it has one).
build_test_module() {
	local dir=$OUT/kmod-test kdir root
	kdir=$("$ROOT/tests/kernels.sh" kdir "$STACKMAP_KERNEL")
	root=$("$ROOT/tests/kernels.sh" build-root "$STACKMAP_KERNEL")
	mkdir -p "$dir/kmod" "$dir/include/stackmap"
	cp -p "$ROOT"/kmod/Kbuild "$ROOT"/kmod/*.[ch] "$dir/kmod/"
	rm -f "$dir/kmod/stackmap.mod.c"
	cp -p "$ROOT"/include/stackmap/*.h "$dir/include/stackmap/"
	if [[ -n $root ]]; then
		local binds=(--bind "$ROOT")
		[[ $dir == "$ROOT"/* ]] || binds+=(--bind "$OUT")
		"$ROOT/tests/roots.sh" run "$root" "${binds[@]}" -- \
			make -s -C "${kdir#"$root"}" M="$dir/kmod" KCFLAGS=-DSTACKMAP_TEST_FAIL_RECURSION modules \
			>"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; fail "module build" "in $root"; }
	else
		make -s -C "$kdir" M="$dir/kmod" KCFLAGS=-DSTACKMAP_TEST_FAIL_RECURSION modules >"$dir/build.log" 2>&1 ||
			{ cat "$dir/build.log" >&2; fail "module build" "make -C $kdir"; }
	fi
	TEST_KO=$dir/kmod/stackmap.ko
	# Kbuild's own verdict on the kernel's tracepoint.h.
	PINS=1
	grep -q -- -DSTACKMAP_PREEMPTIBLE_PROBES "$dir/kmod/.stackmap_attach.o.cmd" || PINS=0
	[[ $(modinfo -F stackmap_test "$TEST_KO") == fail_recursion ]] ||
		fail "module build" "the test build lacks STACKMAP_TEST_FAIL_RECURSION"
	[[ -z $(modinfo -F stackmap_test "$KO") ]] ||
		fail "module build" "the normal build $KO has test code: $(modinfo -F stackmap_test "$KO")"
	! grep -q -a test_fail_recursion "$KO" || fail "module build" "the normal build $KO has the test knob"
}

boot_guest() {
	local t0=$SECONDS
	rm -rf "$OUT/share"
	mkdir -p "$OUT/share"
	# No second boot for a hang: here a hang is the failure looked for.
	run_vm pinleak "$OUT/share" --module "$TEST_KO" --smp 2 \
		--timeout "${PINLEAK_TIMEOUT:-240}" --hung-retries 0 ||
		fail "guest run" "run-vm exited $? after $((SECONDS - t0)) s; offline: $(cat "$OUT/share/offline.txt" 2>/dev/null || echo 'not reached') (see $OUT/share/console.log)"
	[[ $(cat "$OUT/share/result" 2>/dev/null) == ok ]] || fail "guest run" "the guest checks did not complete"
	say "guest run $((SECONDS - t0)) s"
}

check() {
	local summary secs
	secs=$(cat "$OUT/share/offline.txt")
	[[ $secs =~ ^[0-9]+\.[0-9]+$ ]] || fail offline "CPU 1 offline: $secs"
	[[ $(stat_of typed_tracepoints) == 1 ]] || fail stats "typed_tracepoints $(stat_of typed_tracepoints), not 1"
	(($(stat_of dropped_recursion) >= 1)) || fail stats "dropped_recursion $(stat_of dropped_recursion): the injected drop is not counted"
	decode decode "$OUT/share"
	summary=$(cat "$OUT/share/summary.txt")
	gawk '/ [1-9][0-9]* resolved,/ { ok = 1 } END { exit !ok }' <<<"$summary" || fail decode "no cookie resolved: $summary"
	if ((PINS)); then
		say "CPU 1 offline in $secs s with the refused hit's task on it; stats lookups $(stat_of lookups)," \
			"dropped_recursion $(stat_of dropped_recursion), unpinned $(stat_of unpinned); $summary"
	else
		say "no pin on this kernel (its probes run with preemption off): the offline in $secs s and" \
			"dropped_recursion $(stat_of dropped_recursion) check only that a refused hit does no harm; $summary"
	fi
	check_ftrace_enabled
}

# Where the sysctl can switch ftrace off (before 7.x) it must be refused under a typed probe; a kernel where
# probes run with preemption off is such a kernel in our matrix (6.12), so there it must have been.
check_ftrace_enabled() {
	local got
	got=$(cat "$OUT/share/ftrace_enabled.txt" 2>/dev/null) || fail ftrace_enabled "the guest wrote no ftrace_enabled.txt"
	case $got in
	"refused while attached") ;;
	"never switches ftrace off")
		((PINS)) || fail ftrace_enabled "$KERNEL_LABEL: ftrace_enabled cannot switch ftrace off, so the typed hook's" \
			"permanence is not tested here" ;;
	*) fail ftrace_enabled "ftrace_enabled.txt: $got" ;;
	esac
	say "ftrace_enabled: $got"
}

build_test_module
boot_guest
check
say "ok ($KERNEL_LABEL)"
