#!/bin/sh
# Guest side of the pairing test (tests/vm/test_pairing.sh checks on the host): the module attached to
# kmem:kmalloc and kmem:kmem_cache_alloc, whose call_site names a frame of their own stack, recorded the ways
# that lose records, each into $SHARE/PHASE/trace.dat with the module's stats:
#   nooverwrite  a small non-overwriting buffer behind a slow reader (trace-cmd record -b 16 -s 500000
#                -O nooverwrite): the ring buffer refuses writes and counts them as dropped
#   toggle       a flight recorder (trace-cmd start, overwriting) while tracing_on is switched off and on
#                every few milliseconds, then extract
#   cpumask      CPU 1 left out of tracing_cpumask (trace-cmd record -M 1): it refuses every write
#   migration    two CPU hogs pinned one to each CPU while three tasks allocate: the allocating tasks are
#                preempted and moved between CPUs (preemptible probes on 7.x); the balancer alone moved none
#                in some runs, so every 50 ms their affinity also flips to the other CPU (a running task is
#                then moved by the stopper at its next preemption point, between two probes on 7.x too):
#                migration/flips.txt has their pids and how many flips were made
#   typed        the migration phase again with the module's typed probes (typed_probes=1: each tracepoint's
#                own __probestub_NAME hooked with ftrace, what kCFI kernels need), where the kernel has them
#                (6.5 and later)
#   listfunc     the typed phase with the function tracer on the same stubs (trace-cmd record -p function -l
#                __probestub_kmalloc ...): ftrace's list function then calls the module's hooks with preemption
#                off, and the module must still pin (6.5 and later)
#   pins         the migration phase with each CPU's pin table cut to one entry (test_pin_slots=1 of the
#                module built with STACKMAP_TEST_PIN_SLOTS, /extra/stackmap-pins.ko), so that hits find it
#                full, where probes run preemptible (6.13 and later) and the host passed that module
#   filter       a filter on stack_cookie that drops at their commit the stack records of about a quarter of
#                the slots, of tasks of even pids ('(cookie & 6) || (common_pid & 1)': a slot filter alone dropped
#                80-90 % of the records when the hot stacks' slots lacked those bits, and left too few stacks to
#                check) beside one on kmem:kmalloc that drops about half of its events (bytes_req & 8)
#   pidfilter    a full flight recording (trace-cmd start -B full, every task) beside an instance filtered to one
#                task (set_event_pid: what trace-cmd record -P PID sets up) that lists directories and opens
#                files by itself, another task listing the same directories first: the instance filters out the
#                definitions the full recording takes (pidfilter/trace.dat, full.dat)
#   snapshot     a flight recording whose buffer is swapped with the snapshot buffer (echo 1 > snapshot)
#                3 times, 300 ms apart, while two tasks allocate (and list twice more after the last swap): the
#                live buffer (trace.dat; trace-cmd 3.1.6 extract -s of the snapshot buffer gave files its own
#                report reads no event from)
# The allocating workloads are guest/lib.sh's allocate, read_loop and dir_loop.
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing
EVENTS="-e stackmap -e kmem:kmalloc -e kmem:kmem_cache_alloc"
# Every phase loads the module with the allocation tracepoints (begin PHASE "$KMEM" [PARAM=VALUE ...]).
KMEM=tracepoints=kmem:kmalloc,kmem:kmem_cache_alloc

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

end() {
	cat $D/stats >"$SHARE/$phase/stats.txt"
	trace-cmd reset >/dev/null 2>&1
	echo 3 >$T/tracing_cpumask
	echo 50 >$T/buffer_percent
	rmmod stackmap
}

phase_nooverwrite() {
	begin nooverwrite "$KMEM"
	# The reader's poll waits for no watermark: on 6.1 the watermark check (ring_buffer_nr_dirty_pages())
	# warned once in three runs of this phase, its page counts off by one under a full non-overwriting
	# buffer (counters the module only reads).
	echo 0 >$T/buffer_percent
	# shellcheck disable=SC2086 # EVENTS is a list of options
	trace-cmd record -q -b 16 -s 500000 -O nooverwrite $EVENTS -o "$SHARE/nooverwrite/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; ALLOC_DIRS=/sys allocate 1'
	end
}

phase_toggle() {
	begin toggle "$KMEM"
	# shellcheck disable=SC2086
	trace-cmd start -q -b 512 $EVENTS
	allocate 6 &
	work=$!
	n=0
	while kill -0 $work 2>/dev/null; do
		echo 0 >$T/tracing_on
		usleep 3000
		echo 1 >$T/tracing_on
		usleep 7000
		n=$((n + 1))
	done
	wait $work || true
	trace-cmd stop
	trace-cmd extract -o "$SHARE/toggle/trace.dat" >/dev/null
	echo "$n" >"$SHARE/toggle/toggles.txt"
	step "toggle: tracing_on switched off and on $n times"
	end
}

phase_cpumask() {
	begin cpumask "$KMEM"
	# shellcheck disable=SC2086
	trace-cmd record -q -M 1 -b 4096 $EVENTS -o "$SHARE/cpumask/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; allocate 12'
	end
}

# phase_migration [PHASE [PARAM=VALUE [RECORD-OPTIONS]]]: also the typed, listfunc and pins phases, the same
# recording with typed probes, trace-cmd record's RECORD-OPTIONS or another module.
phase_migration() {
	begin "${1:-migration}" "$KMEM" ${2:+"$2"}
	taskset -c 0 sh -c 'while :; do :; done' &
	hog0=$!
	taskset -c 1 sh -c 'while :; do :; done' &
	hog1=$!
	# shellcheck disable=SC2086
	trace-cmd record -q -b 8192 ${3:-} $EVENTS -e sched:sched_migrate_task -o "$SHARE/$phase/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; allocate 3 & a=$!; dir_loop 60 & b=$!; read_loop 6000 & c=$!;
			flip_cpus "$1" $a $b $c; wait' sh "$SHARE/$phase/flips.txt"
	kill $hog0 $hog1
	if [ "$(cat $T/current_tracer)" != nop ]; then
		echo nop >$T/current_tracer
		echo >$T/set_ftrace_filter
	fi
	end
}

phase_filter() {
	begin filter "$KMEM"
	trace-cmd record -q -b 8192 -e stackmap:stack_define -e stackmap:stack_fallback \
		-e stackmap:stack_cookie -f '(cookie & 6) || (common_pid & 1)' -e kmem:kmalloc -f 'bytes_req & 8' -e kmem:kmem_cache_alloc \
		-o "$SHARE/filter/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; allocate 4 & dir_loop 60 & read_loop 3000 & wait'
	end
}

phase_pidfilter() {
	begin pidfilter "$KMEM"
	# The full recording in an instance of its own: each trace.dat then holds one buffer (trace-cmd report
	# shares one tep handle among a file's buffers, so the plugin's pairing would see both interleaved).
	# shellcheck disable=SC2086
	trace-cmd start -q -B full -b 4096 $EVENTS
	# What trace-cmd record -B pid -P PID sets up, done through tracefs so that it is the same on every
	# trace-cmd: an instance whose events are filtered by set_event_pid.  The task allocates by itself (6.1
	# follows no child into the filter here).
	I=$T/instances/pid
	mkdir $I
	echo 4096 >$I/buffer_size_kb
	# The task's first record settles the instance (a new epoch); while it sleeps, another task lists the
	# directories it will list next, so those stacks are defined in the new epoch where only the full recording
	# takes the definitions.
	sh -c '. /guest-common.sh; sleep 1; read_loop 1; sleep 5; dir_loop 30; read_loop 1000' &
	target=$!
	echo $target >$I/set_event_pid
	for e in stackmap kmem/kmalloc kmem/kmem_cache_alloc; do
		echo 1 >$I/events/$e/enable
	done
	sleep 2
	ALLOC_DIRS="/sys/devices/system /sys/kernel/tracing/events/kmem" allocate 1
	wait $target || true
	echo 0 >$I/tracing_on
	echo 0 >$T/instances/full/tracing_on
	trace-cmd extract -B pid -o "$SHARE/pidfilter/trace.dat" >/dev/null
	trace-cmd extract -B full -o "$SHARE/pidfilter/full.dat" >/dev/null
	for i in $I $T/instances/full; do
		if [ -d "$i" ]; then
			echo 0 >"$i/events/enable"
			rmdir "$i"
		fi
	done
	echo "$target" >"$SHARE/pidfilter/target.txt"
	end
}

phase_snapshot() {
	begin snapshot "$KMEM"
	# shellcheck disable=SC2086
	trace-cmd start -q -b 2048 $EVENTS
	# Two tasks allocate until the last swap and then list the directories twice more: the live buffer at the
	# end holds stacks from before and after that swap whatever the speed of the vCPUs (with a TCG thread per
	# vCPU, a fixed 6 listings each ended before the third swap and left 349 stacks to check).
	rm -f /tmp/swapped
	sh -c '. /guest-common.sh
		work() { while [ ! -e /tmp/swapped ]; do allocate 1; done; allocate 2; }
		work & work; wait' &
	work=$!
	# An odd number of swaps: the buffer live at the end is the one the first swap brought in (after an even
	# number the first buffer, holding the first definitions, would be back and hide a missing epoch).
	n=0
	while [ $n -lt 3 ]; do
		usleep 300000
		echo 1 >$T/snapshot
		n=$((n + 1))
	done
	: >/tmp/swapped
	wait $work || true
	trace-cmd stop
	trace-cmd extract -o "$SHARE/snapshot/trace.dat" >/dev/null
	echo 0 >$T/snapshot
	echo "$n" >"$SHARE/snapshot/swaps.txt"
	step "snapshot: $n swaps"
	end
}

phase_nooverwrite
phase_toggle
phase_cpumask
phase_migration
# Typed probes (kmod/stackmap_attach.c): the tracepoints' own __probestub_NAME, from 6.5 (6.1 has none).
if grep -q ' __probestub_kmalloc$' /proc/kallsyms; then
	phase_migration typed typed_probes=1
	# -k, then the function tracer off before its filter is emptied: at its end trace-cmd record (3.1.6, 3.3.1:
	# finalize_record_trace()) writes the saved empty set_ftrace_filter back while the function tracer is still
	# on, so for a moment it takes every function and ftrace patches each one, which on arm64 under TCG (a fixmap
	# mapping and a TLB and cache flush a call site) outlasted the guest's 10 minutes.
	phase_migration listfunc typed_probes=1 \
		"-k -p function -l __probestub_kmalloc -l __probestub_kmem_cache_alloc"
fi
# shellcheck disable=SC2046 # the release's numbers
set -- $(uname -r | tr '.-' '  ')
if [ -r /extra/stackmap-pins.ko ] && { [ "$1" -gt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -ge 13 ]; }; }; then
	KO_FILE=/extra/stackmap-pins.ko
	phase_migration pins test_pin_slots=1
	KO_FILE=
fi
phase_filter
phase_pidfilter
phase_snapshot
step "done"
