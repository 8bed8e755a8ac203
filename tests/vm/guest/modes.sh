#!/bin/sh
# Guest side of the recording-modes test (runs in the VM as /guest.sh, cwd
# $SHARE).  Each phase records one way a kernel engineer records, with stock
# trace-cmd only, and leaves $SHARE/<phase>/*.dat, the module's stats and a
# stack_map listing for the host (tests/vm/test_modes.sh checks them):
#   filtered    the owning event (sched_switch) filtered out by a -f that
#               matches nothing, sched_waking/sched_wakeup recorded
#   unrecorded  attached to sched_switch and sched_waking, only sched_waking
#               recorded
#   elsewhere   the owner recorded in an instance, the stackmap events in the
#               top buffer
#   concurrent  trace-cmd start in the top buffer, then trace-cmd record -B
#               second while the first runs; both extracted
#   flight      flight recorder: trace-cmd start -b 64 (overwrite), a busy
#               workload (four windows and more: the cookies of a CPU's
#               first window may lose their definitions), stop, extract;
#               flight0 the same with
#               redefine_pct=0 (the figure before re-definition)
#   beside      a flight recorder (top buffer, -b 64) started first, then a
#               streaming trace-cmd record -B stream beside it: two consumers
#               of every cookie, the flight recorder registered first
#   stale       a flight recorder whose stacks (sched_process_fork) are
#               defined while it overwrites, then only events without a
#               stack (raw_syscalls of a loop that never forks) push the
#               definitions out, then a few forks use the same stacks again
#   quiet       a flight recorder whose stacks (sched_process_fork, all on
#               CPU 1) are used while it overwrites, then only events
#               without a stack (raw_syscalls of a loop that never forks)
#               replace about half of CPU 1's records: the kept cookies
#               reused definitions the loop pushes out, and no cookie comes
#               after them; only the refresh timer writes them again
#   reset       a map reset in the middle of a recording
#   truncated   max_depth=2: every stack is cut (a sched_switch stack has at
#               least 4 frames: __schedule, schedule, and two callers)
set -eu

D=/sys/kernel/debug/stackmap

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# end: save what the host needs, put everything back.
end() {
	cat $D/stats >"$SHARE/$phase/stats.txt"
	cat $D/stack_map >"$SHARE/$phase/stack_map.txt"
	trace-cmd reset >/dev/null 2>&1
	rmmod stackmap
}

record() {
	trace-cmd record -q "$@" sh -c '. /guest-common.sh; workload 20'
}

phase_filtered() {
	begin filtered tracepoints=sched:sched_switch
	record -o "$SHARE/filtered/trace.dat" -e stackmap -e sched:sched_switch -f 'prev_pid == 999999' \
		-e sched:sched_waking -e sched:sched_wakeup
	end
}

phase_unrecorded() {
	begin unrecorded tracepoints=sched:sched_switch,sched:sched_waking
	record -o "$SHARE/unrecorded/trace.dat" -e stackmap -e sched:sched_waking
	end
}

phase_elsewhere() {
	begin elsewhere tracepoints=sched:sched_switch
	record -o "$SHARE/elsewhere/trace.dat" -e stackmap -B inst -e sched:sched_switch
	end
}

phase_concurrent() {
	begin concurrent tracepoints=sched:sched_switch
	trace-cmd start -q -e stackmap -e sched:sched_switch
	workload 10
	record -o "$SHARE/concurrent/second.dat" -B second -e stackmap -e sched:sched_switch
	workload 10
	trace-cmd stop
	trace-cmd extract -o "$SHARE/concurrent/first.dat"
	end
}

phase_flight() {
	begin flight tracepoints=sched:sched_switch
	trace-cmd start -q -b 64 -e stackmap -e sched:sched_switch
	workload 300
	trace-cmd stop
	trace-cmd extract -o "$SHARE/flight/trace.dat"
	end
}

# The same without re-definition: what a flight recorder kept before.
phase_flight0() {
	begin flight0 tracepoints=sched:sched_switch redefine_pct=0
	trace-cmd start -q -b 64 -e stackmap -e sched:sched_switch
	workload 300
	trace-cmd stop
	trace-cmd extract -o "$SHARE/flight0/trace.dat"
	end
}

phase_beside() {
	begin beside tracepoints=sched:sched_switch
	trace-cmd start -q -b 64 -e stackmap -e sched:sched_switch
	trace-cmd record -q -o "$SHARE/beside/stream.dat" -B stream -e stackmap -e sched:sched_switch \
		sh -c '. /guest-common.sh; workload 150'
	trace-cmd stop
	trace-cmd extract -o "$SHARE/beside/trace.dat"
	end
}

phase_stale() {
	begin stale tracepoints=sched:sched_process_fork
	trace-cmd start -q -b 64 -e stackmap -e sched:sched_process_fork -e raw_syscalls
	workload 100
	read_loop 4000
	workload 4
	trace-cmd stop
	trace-cmd extract -o "$SHARE/stale/trace.dat"
	end
}

# cpu_stat CPU KEY: set val to KEY's value in CPU's ring-buffer stats, read
# by the shell itself: a command substitution or a cat would fork, and a
# fork is a sched_process_fork.
cpu_stat() {
	val=
	while read -r k v _; do
		if [ "$k" = "$2:" ]; then
			val=$v
			return
		fi
	done </sys/kernel/tracing/per_cpu/cpu"$1"/stats
}

# spin N: N rounds of shell arithmetic: time passes, no system call.
spin() {
	j=0
	while [ "$j" -lt "$1" ]; do
		j=$((j + 1))
	done
}

# half_fill CPU: open a file, then spin, until CPU's buffer overwrote half
# the records it held at the start (at most 500 times); runs on CPU (the
# caller pins it).  Slower than the forks before it: the window does not
# shrink in time (a burst that does is stackmap(7)'s "Not seen").
half_fill() {
	cpu_stat "$1" entries
	held=$val
	cpu_stat "$1" overrun
	start=$val loops=0 gone=0
	while [ "$gone" -lt $((held / 2)) ] && [ "$loops" -lt 500 ]; do
		read_loop 1
		spin 3000
		loops=$((loops + 1))
		cpu_stat "$1" overrun
		gone=$((val - start))
	done
	echo "$loops opens: $held records held, $gone overwritten" >"$SHARE/quiet/fill.txt"
}

# fork_loop N: N forks of this shell (a subshell each, no exec): one stack,
# used over and over.
fork_loop() {
	i=0
	while [ "$i" -lt "$1" ]; do
		(:)
		i=$((i + 1))
	done
}

# Tracing is switched off by the shell itself: trace-cmd stop would be one
# more fork, a cookie after the fill.
phase_quiet() {
	begin quiet tracepoints=sched:sched_process_fork
	mask=$(taskset -p $$ | sed 's/.*: //')
	taskset -p -c 1 $$ >/dev/null
	trace-cmd start -q -b 64 -e stackmap -e sched:sched_process_fork -e raw_syscalls
	workload 20
	fork_loop 1500
	half_fill 1
	echo 0 >/sys/kernel/tracing/tracing_on
	taskset -p "$mask" $$ >/dev/null
	trace-cmd extract -o "$SHARE/quiet/trace.dat"
	end
}

phase_reset() {
	begin reset tracepoints=sched:sched_switch
	trace-cmd record -q -o "$SHARE/reset/trace.dat" -e stackmap -e sched:sched_switch \
		sh -c ". /guest-common.sh; workload 10; echo 0 >$D/stack_map; workload 10"
	end
}

phase_truncated() {
	begin truncated tracepoints=sched:sched_switch max_depth=2
	record -o "$SHARE/truncated/trace.dat" -e stackmap -e sched:sched_switch
	end
}

phase_filtered
phase_unrecorded
phase_elsewhere
phase_concurrent
phase_flight
phase_flight0
phase_beside
phase_stale
phase_quiet
phase_reset
phase_truncated
step "done"
