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
#                preempted and moved between CPUs (preemptible probes on 7.x)
# The allocating workload is guest/lib.sh's allocate.
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing
EVENTS="-e stackmap -e kmem:kmalloc -e kmem:kmem_cache_alloc"

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

begin() {
	phase=$1
	step "$phase"
	mkdir -p "$SHARE/$phase"
	insmod "$MODDIR/stackmap.ko" tracepoints=kmem:kmalloc,kmem:kmem_cache_alloc
}

end() {
	cat $D/stats >"$SHARE/$phase/stats.txt"
	trace-cmd reset >/dev/null 2>&1
	echo 3 >$T/tracing_cpumask
	echo 50 >$T/buffer_percent
	rmmod stackmap
}

phase_nooverwrite() {
	begin nooverwrite
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
	begin toggle
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
	begin cpumask
	# shellcheck disable=SC2086
	trace-cmd record -q -M 1 -b 4096 $EVENTS -o "$SHARE/cpumask/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; allocate 12'
	end
}

phase_migration() {
	begin migration
	taskset -c 0 sh -c 'while :; do :; done' &
	hog0=$!
	taskset -c 1 sh -c 'while :; do :; done' &
	hog1=$!
	# shellcheck disable=SC2086
	trace-cmd record -q -b 8192 $EVENTS -e sched:sched_migrate_task -o "$SHARE/migration/trace.dat" \
		sh -c '. /guest-common.sh; sleep 1; allocate 3 & allocate 3 & allocate 3; wait'
	kill $hog0 $hog1
	end
}

phase_nooverwrite
phase_toggle
phase_cpumask
phase_migration
step "done"
