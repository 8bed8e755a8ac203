#!/bin/bash
# End-to-end test on a real kernel: stackmap.ko attached to sched_switch in
# a qemu guest running the Debian kernel, a workload recorded with stock
# `trace-cmd record -e stackmap -e sched:sched_switch`, the trace.dat
# decoded on the host with fgdecode and checked against the guest's own
# stack_map listing and stats (see check_e2e.awk), and `trace-cmd report`
# with the plugin checked against fgdecode (tests/plugin/check_report.sh).
# Needs `make` to have built kmod/stackmap.ko and decoder/fgdecode.
# Other builds (tests/test_deb.sh: the packages'): STACKMAP_KO (a module for the kernel booted), FGDECODE,
# PLUGIN_DIR (passed to check_report.sh); STACKMAP_CHECK_REPORT=0 leaves check_report.sh out (a plugin built
# for another userland than the host's trace-cmd).
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# The kernel (STACKMAP_KERNEL, default the one kmod/stackmap.ko was built for): KO, VM_ARGS, OUT, KERNEL_LABEL.
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-e2e}"
if [[ -n ${STACKMAP_KO:-} ]]; then
	KO=$STACKMAP_KO
	say "module $KO (STACKMAP_KO)"
fi
# check_report.sh reads the same build.
export FGDECODE

check_stack_map() {
	gawk -f "$ROOT/tests/vm/check_e2e.awk" "$OUT/stack_map.txt" "$OUT/decoded.txt" ||
		fail "stack_map comparison" "see messages above"
}

# lookups = hits + inserts + fallbacks, and nothing dropped.
check_stats() {
	local f=$OUT/stats.txt k
	stats_add_up stats "$f"
	for k in dropped_nested dropped_empty dropped_recursion; do
		(($(stat_value "$k" "$f") == 0)) || fail stats "stacks dropped ($k $(stat_value "$k" "$f"))"
	done
}

# The listing names the trace's map (events.h "Map identity"): fgdecode uses it; the same listing under
# another map id (what another load with the same generation gives: another boot of the same image) is
# refused, naming both ids.
check_map_id() {
	local id other
	id=$(sed -n '1s/.* map_id \(0x[0-9a-f]\{16\}\)$/\1/p' "$OUT/stack_map.txt")
	[[ -n $id ]] || fail "map id" "no map_id in the header of $OUT/stack_map.txt"
	grep -q "^map_id $id\$" "$OUT/stats.txt" || fail "map id" "stats and stack_map disagree"
	"$FGDECODE" --stack-map "$OUT/stack_map.txt" "$OUT/trace.dat" >/dev/null 2>"$OUT/map_id.err" ||
		fail "map id" "its own listing refused: $(cat "$OUT/map_id.err")"
	other=$(printf '0x%016x' $((id ^ 1)))
	sed "1s/map_id $id/map_id $other/" "$OUT/stack_map.txt" >"$OUT/other_map.txt"
	if "$FGDECODE" --stack-map "$OUT/other_map.txt" "$OUT/trace.dat" >/dev/null 2>"$OUT/map_id.err"; then
		fail "map id" "a listing of map $other used for a trace of map $id"
	fi
	grep -q "map id $other is not the trace's ($id)" "$OUT/map_id.err" ||
		fail "map id" "refusal does not name both ids: $(cat "$OUT/map_id.err")"
	say "map id: the trace's listing used; as map $other refused: $(cat "$OUT/map_id.err")"
}

rm -rf "$OUT"
mkdir -p "$OUT"
run_guest e2e --timeout 300
[[ -s $OUT/trace.dat ]] || fail "guest run" "no trace.dat came back"
decode decode "$OUT"
cat "$OUT/summary.txt"
all_resolved decode "$OUT/summary.txt" "stale or unknown cookies in a fully defined trace"
check_map_id
check_stack_map
check_stats
if [[ ${STACKMAP_CHECK_REPORT:-1} != 0 ]]; then
	"$ROOT/tests/plugin/check_report.sh" "$OUT/trace.dat" ||
		fail "trace-cmd report with the plugin" "its stacks differ from fgdecode's"
else
	say "trace-cmd report with the plugin not compared (STACKMAP_CHECK_REPORT=0)"
fi
say "ok on kernel $KERNEL_LABEL ($OUT)"
