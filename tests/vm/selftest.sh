#!/bin/bash
# Prove tests/vm/run-vm.sh on the real kernel, with no project module. Extra arguments (e.g. --kver, --smp) are
# passed to every run-vm call.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUN_VM=$HERE/run-vm.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/vm-selftest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
PASSED=0 FAILED=0
EXTRA_ARGS=("$@")

# run_guest NAME SCRIPT_TEXT [run-vm options...]: boots with the script; sets RC, OUT (run-vm's output), SHARE.
run_guest() {
	local name=$1 text=$2
	shift 2
	SHARE=$TMP/$name
	mkdir -p "$SHARE"
	printf '%s\n' "$text" >"$TMP/$name.sh"
	RC=0
	OUT=$("$RUN_VM" --guest-script "$TMP/$name.sh" --share "$SHARE" "$@" ${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"} 2>&1) ||
		RC=$?
}

# verdict NAME WHY CHECK...: runs CHECK (status kept from set -e), records and prints one result.
verdict() {
	local name=$1 why=$2
	shift 2
	if "$@"; then
		PASSED=$((PASSED + 1))
		echo "PASS $name"
	else
		FAILED=$((FAILED + 1))
		echo "FAIL $name: $why"
		printf '%s\n' "$OUT" | tail -n 15 | sed 's/^/    | /'
	fi
}

# failed_with MESSAGE: run-vm failed and said MESSAGE.
failed_with() {
	[[ $RC != 0 ]] && grep -qF "$1" <<<"$OUT"
}

test_share_file_comes_back() {
	# shellcheck disable=SC2016 # expands in the guest
	run_guest share 'echo from-guest >"$SHARE/out.txt"; exit 0'
	verdict share_file_comes_back_and_exit_0 "rc=$RC, out.txt: $(cat "$SHARE/out.txt" 2>&1)" \
		test "$RC" = 0 -a "$(cat "$SHARE/out.txt" 2>/dev/null)" = from-guest
}

test_exit_code_propagates() {
	run_guest exit3 'exit 3'
	verdict guest_exit_3_gives_exit_3 "rc=$RC" test "$RC" = 3
}

test_hang_times_out() {
	run_guest hang 'sleep 1000' --timeout 40 --hung-retries 0
	verdict hung_guest_times_out "rc=$RC, no timeout message" failed_with 'run-vm: qemu failed: timeout'
}

test_kernel_crash_detected() {
	run_guest crash 'echo c >/proc/sysrq-trigger; sleep 30; exit 0'
	verdict kernel_crash_is_a_failure "rc=$RC, no kernel failure message" failed_with 'run-vm: kernel failed: console shows:'
	# The one-line reason says where: the crash's call trace passes through sysrq's handler.
	verdict kernel_crash_names_its_call_trace "no 'call trace ... sysrq_handle_crash' in the reason" \
		grep -qE '^run-vm: kernel failed: console shows: .*; call trace .*sysrq_handle_crash' <<<"$OUT"
}

# --stop-on-report: a guest that hangs after a kernel report is stopped soon after it, and the run fails on it.
test_stop_on_report() {
	local t0=$SECONDS
	run_guest report 'echo "BUG: selftest report" >/dev/console; sleep 1000' --timeout 200 --hung-retries 0 \
		--stop-on-report 5
	verdict report_stops_the_guest "rc=$RC after $((SECONDS - t0)) s (timeout 200)" \
		eval 'failed_with "guest stopped 5s after it" && failed_with "run-vm: kernel failed: console shows: BUG: selftest report" && ((SECONDS - t0 < 120))'
}

# run-vm boots with no5lvl (see boot_once()): the guest runs 4-level paging, so the kernel drops LA57.
test_four_level_paging() {
	run_guest paging 'if grep -qw la57 /proc/cpuinfo; then exit 4; fi; exit 0'
	verdict guest_runs_four_level_paging "rc=$RC (4: la57 in /proc/cpuinfo)" test "$RC" = 0
}

test_trace_cmd_records() {
	local n
	# shellcheck disable=SC2016 # expands in the guest
	run_guest trace 'trace-cmd record -e sched:sched_switch -o "$SHARE/t.dat" sleep 1'
	n=$(trace-cmd report -i "$SHARE/t.dat" 2>/dev/null | grep -c sched_switch || true)
	verdict trace_cmd_records_sched_switch "rc=$RC, sched_switch lines: ${n:-none}" \
		test "$RC" = 0 -a "${n:-0}" -gt 0
}

main() {
	test_share_file_comes_back
	test_exit_code_propagates
	test_hang_times_out
	test_kernel_crash_detected
	test_stop_on_report
	test_four_level_paging
	test_trace_cmd_records
	echo "$PASSED passed, $FAILED failed"
	((FAILED == 0))
}

main
