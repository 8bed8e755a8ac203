#!/bin/bash
# The module on a real kernel (guest/module.sh does the guest side):
#   stress  load + resets + readers + toggles + rmmod under load: no kernel
#           splat (run-vm.sh fails on any), stats add up
#   full    max_entries=8: fallbacks counted, every sched_switch still
#           carries a stack, nothing unresolved
#   stale   cookies of a generation reset away, whose definitions are not in
#           the trace, are reported stale or unknown, never resolved
#   nmi     stacks taken in NMI context go through exc_nmi
# Needs `make` to have built kmod/stackmap.ko and decoder/fgdecode.
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# The kernel (STACKMAP_KERNEL, default the one kmod/stackmap.ko was built for): KO, VM_ARGS, OUT, KERNEL_LABEL.
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-module}"

# decode_phase PHASE: fgdecode --cookies into PHASE/decoded.txt, summary kept and printed.
decode_phase() {
	decode "$1" "$OUT/$1"
	say "$1: $(cat "$OUT/$1/summary.txt")"
}

# count PHASE WORD: the number before WORD in PHASE's fgdecode summary.
count() {
	summary_count "$OUT/$1/summary.txt" "$2"
}

check_stress() {
	local f=$OUT/stress/stats.txt
	[[ -s $f ]] || fail stress "no stats came back"
	stats_add_up stress "$f"
	# Each reset waits for an RCU grace period: 40 resets in the 20 s on Debian's kernels, 18-20 on the 6.1 debug
	# kernel, 9 on the 7.3 one (debug-newest). Five are enough to have raced the readers and the probes.
	(($(stat_value resets "$f") >= 5)) || fail stress "fewer than 5 resets ran"
	(($(stat_value dropped_nested "$f") == 0)) || fail stress "stacks dropped for nesting"
	# The 64 KiB buffer overwrote: its windows were measured, so definitions were queued and the refresh timers
	# ran (a reset every 0.15 s leaves few definitions to refresh: 0 in one run on 6.1).
	(($(stat_value windows "$f") > 0)) || fail stress "no window measured: the 64 KiB buffer never overwrote"
	say "stress: $(stat_value resets "$f") resets raced the probes, the readers and" \
		"$(stat_value refreshes "$f") refreshes ($(stat_value windows "$f") windows measured)"
}

check_full() {
	local f=$OUT/full/stats.txt without cut
	stats_add_up full "$f"
	(($(stat_value fallback_full "$f") > 0)) || fail full "no fallback counted with max_entries=8"
	decode_phase full
	(($(count full fallback) > 0)) || fail full "no fallback stack in the trace"
	(($(count full stale) == 0 && $(count full unknown) == 0)) ||
		fail full "unresolved cookies"
	# A CPU's last sched_switch may lose its stack to the end of the
	# recording (tracing_on went to 0 between the two writes): fgdecode
	# marks it, and it can only be the last record of a CPU (2 of them).
	without=$(gawk '/sched_switch:/ { getline n; if (n !~ /^    (<cookie|<fallback)/) c++ } END { print c + 0 }' \
		"$OUT/full/decoded.txt")
	cut=$(grep -c '^    <no stack: the recording of this CPU ends here>$' "$OUT/full/decoded.txt" || true)
	((without == cut && cut <= 2)) ||
		fail full "$without sched_switch events without a stack, $cut of them at the end of a CPU's recording"
	say "full: every sched_switch has its stack ($cut cut off by the end of the recording)"
}

check_stale() {
	local old resolved_old
	old=$(cat "$OUT/stale/old_generation")
	decode_phase stale
	(($(count stale stale) > 0)) || fail stale "no stale cookie reported"
	(($(count stale resolved) > 0)) || fail stale "no cookie of the new generation resolved"
	# After "<cookie ... gen OLD ...>" must come a stale or unknown marker.
	resolved_old=$(gawk -v g="$old" '$1 == "<cookie" && $4 == g { getline n; if (n !~ /=> <(stale|unknown) cookie gen /) c++ }
		END { print c + 0 }' "$OUT/stale/decoded.txt")
	((resolved_old == 0)) || fail stale "$resolved_old cookies of reset generation $old resolved to a stack"
	say "stale: no cookie of generation $old resolved"
}

check_nmi() {
	decode_phase nmi
	(($(count nmi stale) == 0 && $(count nmi unknown) == 0)) ||
		fail nmi "unresolved cookies"
	gawk '
	function finish() { if (s !~ /default_do_nmi\+|exc_nmi\+/) { print "not an NMI stack: " s; bad++ }; inev = 0 }
	/nmi_handler:/ { if (inev) finish(); inev = 1; s = ""; events++; next }
	inev && /^    => / { s = s $2 " "; next }
	inev && /^    </ { next }
	inev { finish() }
	END { if (inev) finish(); if (!events || bad) exit 1
		printf "test_module: nmi: %d stacks taken in NMI context, all through exc_nmi\n", events }' \
		"$OUT/nmi/decoded.txt" || fail nmi "NMI stacks missing or wrong"
}

rm -rf "$OUT"
mkdir -p "$OUT"
# On the debug kernel one round of the stale phase's workload takes 10 s (every event directory listed under
# KASAN and lockdep): fewer rounds, over the sched events only (guest/module.sh reads ./params).
if kernel_config_has KASAN; then
	printf '%s\n' FULL_ROUNDS=3 STALE_ROUNDS=2 WORKLOAD_DIR=/sys/kernel/tracing/events/sched >"$OUT/params"
fi
run_guest module --timeout 300 --hung-retries 2
check_stress
check_full
check_stale
check_nmi
say "ok on kernel $KERNEL_LABEL ($OUT)"
