#!/bin/sh
# Guest side of the module test (runs in the VM as /guest.sh, cwd $SHARE).
# Phases, each leaving its files in $SHARE/<phase>/ for the host:
#   stress  event-heavy workload + reset loop + stack_map reader loop +
#           event enable/disable loop + attach/detach of tracepoints and
#           functions on 2 vCPUs, then rmmod while all of it runs
#   full    a tiny map (max_entries=8): fallbacks counted, no stack lost
#   stale   a reset in the middle of a recording whose definitions of the
#           old generation are filtered out: those cookies must not resolve
#   nmi     stacks recorded in NMI context (nmi:nmi_handler, NMIs sent by
#           sysrq-l to the other CPU) while the map is being reset
# The harness fails the run on any BUG/WARNING/Oops on the console.
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing
STRESS_SECONDS=${STRESS_SECONDS:-20}
# workload (guest/lib.sh) lists every event's directory here, not only sched's: more events, longer rounds.
export WORKLOAD_DIR=$T/events
# Rounds of work in the full and stale phases. A slow kernel (the debug kernel: KASAN and lockdep under TCG,
# where one round of the stale phase takes 10 s) gets fewer from the host in ./params (test_module.sh): the same
# phases and checks, less work in each.
FULL_ROUNDS=10 STALE_ROUNDS=10
# shellcheck disable=SC1091 # written by the host, only for slow kernels
[ ! -r ./params ] || . ./params

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# Run "$@" in a loop until the file $1 exists.
loop() {
	stop=$1
	shift
	while [ ! -e "$stop" ]; do
		"$@" >/dev/null 2>&1 || true
	done
}

# rmmod, retried while a loop that is being stopped still holds a file open.
rmmod_retry() {
	n=0
	until rmmod stackmap 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || { echo "guest: rmmod kept failing" >&2; return 1; }
		sleep 0.05
	done
}

# Enabling an event or attaching a probe patches kernel text (static keys,
# ftrace call sites).  Under TCG, patching in a tight loop hangs the guest even
# without this module (seen with the stock function tracer toggled every 50 ms
# on vfs_read, and now and then even at one toggle a second), so the toggles
# here run every one to three seconds.
# Detach every tracepoint and function glob, so that the counters of stats hold still while they are read
# (lookups is summed first, the outcomes after: a probe firing in between makes them disagree; a detach waits for
# the probes in flight).
detach_all() {
	for f in tracepoints functions; do
		grep -v '^#' "$D/$f" | while read -r what; do
			echo "!$what" >>"$D/$f" 2>/dev/null || true
		done
	done
}

# save_stats FILE: the stats with nothing attached.
save_stats() {
	detach_all
	cat $D/stats >"$1"
}

toggle_events() {
	echo 1 >$T/events/stackmap/enable
	sleep 1
	echo 0 >$T/events/stackmap/enable
	sleep 1
}

toggle_attach() {
	echo sched:sched_wakeup >>$D/tracepoints
	sleep 1.5
	echo '!sched:sched_wakeup' >>$D/tracepoints
	sleep 1.5
}

toggle_functions() {
	echo 'do_sys_openat2' >>$D/functions
	sleep 3
	echo '!do_sys_openat2' >>$D/functions
	sleep 3
}

phase_stress() {
	mkdir -p "$SHARE/stress"
	stop_load=/tmp/stop-load stop_ctl=/tmp/stop-ctl
	rm -f $stop_load $stop_ctl
	step "stress: ${STRESS_SECONDS}s of load, resets, readers, toggles"
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch,irq:softirq_entry
	echo vfs_read >$D/functions
	# A small buffer, overwritten all the time: windows are measured and
	# definitions refreshed by the timers through resets and the rmmod.
	# "7 (expanded: 1408)" before its first use: the size it expands to.
	buffer_kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $T/buffer_size_kb)
	echo 64 >$T/buffer_size_kb
	echo 1 >$T/tracing_on
	loop $stop_load workload 5 &
	loop $stop_ctl sh -c "echo 0 >$D/stack_map; sleep 0.03" &
	loop $stop_ctl cat $D/stack_map &
	loop $stop_ctl cat $D/stats &
	loop $stop_ctl toggle_events &
	loop $stop_ctl toggle_attach &
	loop $stop_ctl toggle_functions &
	i=0
	while [ $i -lt "$STRESS_SECONDS" ]; do
		sleep 5
		i=$((i + 5))
		step "stress: ${i}s, $(grep -E '^(lookups|resets) ' $D/stats | tr '\n' ' ')"
	done
	# A reader holding stack_map open keeps the module: rmmod must refuse.
	exec 3<$D/stack_map
	if rmmod stackmap 2>/dev/null; then
		echo "guest: rmmod succeeded while stack_map was open" >&2
		exit 1
	fi
	exec 3<&-
	touch $stop_ctl
	sleep 0.2
	save_stats "$SHARE/stress/stats.txt"
	# Attach again what save_stats detached.
	for tp in sched:sched_switch irq:softirq_entry sched:sched_wakeup; do
		echo $tp >>$D/tracepoints 2>/dev/null || true
	done
	echo vfs_read >>$D/functions 2>/dev/null || true
	echo 1 >$T/events/stackmap/enable
	step "stress: rmmod while hooks fire and events are enabled"
	rmmod_retry
	touch $stop_load
	wait
	echo 0 >$T/tracing_on
	echo "$buffer_kb" >$T/buffer_size_kb
	grep -q stackmap /proc/modules && { echo "guest: module still loaded" >&2; exit 1; }
	step "stress: done"
}

phase_full() {
	mkdir -p "$SHARE/full"
	step "full: max_entries=8"
	insmod "$MODDIR/stackmap.ko" max_entries=8 max_frames=64 tracepoints=sched:sched_switch
	trace-cmd record -q -e stackmap -e sched:sched_switch -o "$SHARE/full/trace.dat" \
		sh -c 'i=0; while [ $i -lt '"$FULL_ROUNDS"' ]; do ls -R /sys/kernel/tracing/events >/dev/null; sleep 0.01; i=$((i + 1)); done'
	save_stats "$SHARE/full/stats.txt"
	cat $D/stack_map >"$SHARE/full/stack_map.txt"
	rmmod stackmap
}

phase_stale() {
	mkdir -p "$SHARE/stale"
	step "stale: reset in the middle, old definitions filtered out"
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
	old=$(awk '$1 == "generation" { print $2 }' $D/stats)
	echo "$old" >"$SHARE/stale/old_generation"
	# Definitions of generation $old are not recorded; later ones are.
	trace-cmd record -q -e sched:sched_switch -e stackmap:stack_cookie \
		-e stackmap:stack_define -f "cookie > $(((old << 32) | 0xffffffff))" \
		-o "$SHARE/stale/trace.dat" \
		sh -c ". /guest-common.sh; workload $STALE_ROUNDS; echo 0 >$D/stack_map; workload $STALE_ROUNDS"
	cat $D/stats >"$SHARE/stale/stats.txt"
	rmmod stackmap
}

phase_nmi() {
	mkdir -p "$SHARE/nmi"
	step "nmi: nmi:nmi_handler with sysrq-l NMIs and resets"
	# Keep the NMI backtraces off the console (the harness fails on them).
	# Each sysrq raises the console log level while it prints its header,
	# which would flush backtraces still pending from the previous one: give
	# them time to be flushed (quietly) first.
	dmesg -n 1
	insmod "$MODDIR/stackmap.ko" tracepoints=nmi:nmi_handler
	trace-cmd record -q -e stackmap -e nmi:nmi_handler -o "$SHARE/nmi/trace.dat" \
		sh -c "i=0; while [ \$i -lt 20 ]; do echo l >/proc/sysrq-trigger; sleep 0.3; [ \$((i % 5)) -eq 4 ] && echo 0 >$D/stack_map; i=\$((i + 1)); done"
	cat $D/stats >"$SHARE/nmi/stats.txt"
	rmmod stackmap
	dmesg -n 5
}

phase_stress
phase_full
phase_stale
phase_nmi
step "done"
