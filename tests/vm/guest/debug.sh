#!/bin/sh
# Guest side of the debug-kernel test (runs in the VM as /guest.sh, cwd $SHARE), on the KASAN + lockdep + UBSAN
# kernel of tests/kernels/debug-kernel.sh. Runs the phases named in /extra/phases, each leaving its files in
# $SHARE/<phase>/:
#   record      the module on sched:sched_switch, `trace-cmd record -e stackmap -e sched:sched_switch sleep 1`
#   idle_reset  the function arch_cpu_idle (an idle function: RCU is not watching there) and sched:sched_switch
#               attached, the map reset every 50 ms for 20 s while the top-level buffer records; the race a
#               review found (a callback outside RCU escaped the grace period of a reset) warned at
#               stackmap_trace.h:19 in stackmap_ftrace_func and in __module_address.  Where no idle function
#               can be traced (7.x builds the idle path noinstr: arch_cpu_idle and default_idle are not in
#               available_filter_functions), no callback can run outside RCU that way: the phase says so in
#               idle_reset/skipped.txt and does nothing else
#   rmmod_race  5 rounds of: load, two loops writing every module parameter (attach and detach tracepoints
#               and functions, reset), rmmod while they run; a write that lost the race must fail with
#               ENODEV, never attach to or reset a module on its way out (the first round of that ended in a
#               KASAN report in sm_map_get_cookie before the fix)
#   typed       typed probes (typed_probes=1; each tracepoint's own __probestub_NAME hooked with ftrace), where
#               the kernel has them (6.5 and later; else typed/skipped.txt says why): sched:sched_switch and
#               kmem:kmalloc recorded for a second, rmmod while a flight recording of them runs, then 3 rounds of
#               rmmod_race's parameter loops with typed probes (stub registrations and ftrace_ops come and go)
# The checks are the kernel's own: any report on the console fails the run (run-vm.sh). This script's output goes
# to that console too, so it never prints the words the harness looks for.
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# stat_of_file KEY FILE: a counter of a saved stats file.
stat_of_file() {
	awk -v k="$1" '$1 == k { print $2 }' "$2"
}

phase_record() {
	mkdir -p "$SHARE/record"
	step "record: sched:sched_switch, trace-cmd record sleep 1"
	insmod "$MODDIR/stackmap.ko"
	echo sched:sched_switch >>$D/tracepoints
	trace-cmd record -q -e stackmap -e sched:sched_switch -o "$SHARE/record/trace.dat" sleep 1 \
		>"$SHARE/record/record.log" 2>&1 || die "trace-cmd record exited $?"
	cat $D/stats >"$SHARE/record/stats.txt"
	[ "$(stat_of lookups)" -gt 0 ] || die "no stack recorded"
	rmmod stackmap
	step "record: $(stat_of_file lookups "$SHARE/record/stats.txt") stacks"
}

# idle_function: the first idle function ftrace can hook on this kernel (none: empty).
idle_function() {
	for f in arch_cpu_idle default_idle; do
		if grep -qx "$f" $T/available_filter_functions; then
			echo "$f"
			return
		fi
	done
}

phase_idle_reset() {
	mkdir -p "$SHARE/idle_reset"
	idle=$(idle_function)
	if [ -z "$idle" ]; then
		echo "no idle function in available_filter_functions (arch_cpu_idle, default_idle): the idle path is noinstr" \
			>"$SHARE/idle_reset/skipped.txt"
		step "idle_reset: skipped: $(cat "$SHARE/idle_reset/skipped.txt")"
		return
	fi
	step "idle_reset: $idle + sched:sched_switch, reset every 50 ms for 20 s while recording"
	insmod "$MODDIR/stackmap.ko"
	echo "$idle" >$D/functions
	echo sched:sched_switch >>$D/tracepoints
	gen0=$(stat_of generation)
	echo 0 >$T/tracing_on
	echo 4096 >$T/buffer_size_kb
	echo >$T/trace
	echo 1 >$T/events/stackmap/enable
	echo 1 >$T/events/sched/sched_switch/enable
	echo 1 >$T/tracing_on
	resets=0
	end=$(($(date +%s) + 20))
	while [ "$(date +%s)" -lt $end ]; do
		echo 0 >$D/stack_map
		resets=$((resets + 1))
		usleep 50000
	done
	echo 0 >$T/tracing_on
	echo 0 >$T/events/sched/sched_switch/enable
	echo 0 >$T/events/stackmap/enable
	cat $D/stats >"$SHARE/idle_reset/stats.txt"
	cat $D/functions >"$SHARE/idle_reset/functions.txt"
	grep -c 'function_entry:' $T/trace >"$SHARE/idle_reset/function_entries.txt" || true
	grep -c 'stack_cookie:' $T/trace >"$SHARE/idle_reset/cookies.txt" || true
	echo "$resets" >"$SHARE/idle_reset/resets.txt"
	gen1=$(stat_of generation)
	[ $((gen1 - gen0)) -ge "$resets" ] || die "generation moved $((gen1 - gen0)) for $resets resets"
	[ "$(stat_of lookups)" -gt 0 ] || die "no stack recorded"
	rmmod stackmap
	echo >$T/trace
	step "idle_reset: $resets resets, generation $gen0 -> $gen1, $(stat_of_file lookups "$SHARE/idle_reset/stats.txt") lookups"
}

# param_writer OUT TRACEPOINT GLOB: write every parameter in a loop until the module's are gone; counts the
# writes and those refused with ENODEV ("No such device") into OUT.
param_writer() {
	P=/sys/module/stackmap/parameters
	writes=0 enodev=0
	while [ -e $P/reset ]; do
		for w in "tracepoints $2" "tracepoints !$2" "functions $3" "functions !$3" "reset 1"; do
			if ! err=$(echo "${w#* }" 2>&1 >"$P/${w%% *}"); then
				case $err in *"No such device"*) enodev=$((enodev + 1)) ;; esac
			fi
			writes=$((writes + 1))
		done
	done
	echo "$writes $enodev" >"$1"
}

# rmmod_rounds OUT ROUNDS [PARAM=VALUE ...]: ROUNDS x (load with PARAMs, write every parameter from two loops,
# rmmod); the writes and ENODEV refusals of all rounds into OUT/writes.txt.
rmmod_rounds() {
	rr_dir=$1 rr_rounds=$2 round=0
	shift 2
	mkdir -p "$rr_dir"
	while [ $round -lt "$rr_rounds" ]; do
		insmod "$MODDIR/stackmap.ko" "$@"
		param_writer "$rr_dir/w1.$round" sched:sched_switch do_sys_openat2 &
		w1=$!
		param_writer "$rr_dir/w2.$round" sched:sched_wakeup vfs_read &
		w2=$!
		usleep $((200000 + round * 150000))
		rmmod stackmap
		wait $w1 $w2
		round=$((round + 1))
	done
	cat "$rr_dir"/w1.* "$rr_dir"/w2.* | awk '{ w += $1; e += $2 } END { print w, e }' >"$rr_dir/writes.txt"
}

phase_rmmod_race() {
	step "rmmod_race: 5 x (load, write every parameter from two loops, rmmod)"
	rmmod_rounds "$SHARE/rmmod_race" 5
	step "rmmod_race: writes and ENODEV refusals: $(cat "$SHARE/rmmod_race/writes.txt")"
}

phase_typed() {
	out=$SHARE/typed
	mkdir -p "$out"
	if ! grep -q ' __probestub_sched_switch$' /proc/kallsyms; then
		echo "no __probestub_sched_switch in /proc/kallsyms: tracepoints have no typed stub before 6.5" \
			>"$out/skipped.txt"
		step "typed: skipped: $(cat "$out/skipped.txt")"
		return
	fi
	step "typed: record, rmmod while recording, 3 x rmmod_race, with typed_probes=1"
	insmod "$MODDIR/stackmap.ko" typed_probes=1 tracepoints=sched:sched_switch,kmem:kmalloc
	trace-cmd record -q -e stackmap -e sched:sched_switch -e kmem:kmalloc -o "$out/trace.dat" sleep 1 \
		>"$out/record.log" 2>&1 || die "trace-cmd record exited $?"
	cat $D/stats >"$out/stats.txt"
	[ "$(stat_of typed_tracepoints)" = 2 ] || die "typed: stats say typed_tracepoints $(stat_of typed_tracepoints), not 2"
	[ "$(stat_of lookups)" -gt 0 ] || die "typed: no stack recorded"
	trace-cmd start -q -e stackmap -e sched:sched_switch -e kmem:kmalloc
	(workload 3) &
	usleep 300000
	rmmod stackmap
	wait
	trace-cmd reset >/dev/null 2>&1
	rmmod_rounds "$out/rmmod_race" 3 typed_probes=1
	step "typed: $(stat_of_file lookups "$out/stats.txt") stacks recorded; writes and ENODEV refusals: $(cat "$out/rmmod_race/writes.txt")"
}

read -r phases </extra/phases
for phase in $phases; do
	"phase_$phase"
done
step "all phases done"
