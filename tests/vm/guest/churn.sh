#!/bin/sh
# Guest side of the consumer-churn test (runs in the VM as /guest.sh, cwd $SHARE): ring buffers start and stop
# taking the module's cookies back to back while cookies flow on every CPU, so that a consumer's entry is freed
# and taken again under running probes (#37 item 6).  A flight recorder in the top buffer the whole time, a
# task looping a workload beside, then ROUNDS instances each created, recording stacks, the map reset in the
# middle, stopped and removed; then RECORDS trace-cmd record -B runs with a reset in each.  Leaves in $SHARE:
#   flight.dat      the top buffer, extracted at the end
#   recN.dat        each trace-cmd record
#   stats.txt       the counters at the end
#   result          "ok" once every step completed
# On the KCSAN kernel the harness fails the run on a data race with an access in the module (run-vm.sh).
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing
ROUNDS=12
RECORDS=3

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch,sched:sched_waking
trace-cmd start -q -b 256 -e stackmap -e sched:sched_switch -e sched:sched_waking
sh -c '. /guest-common.sh; while :; do workload 1; done' &
bg=$!

# workload uses i and a rounds counter of its own would be clobbered: n, m here.
n=0
while [ "$n" -lt "$ROUNDS" ]; do
	step "instance $n: created, recording, reset, stopped, removed"
	inst=$T/instances/churn$n
	mkdir "$inst"
	echo 1 >"$inst/events/stackmap/enable"
	echo 1 >"$inst/events/sched/sched_switch/enable"
	workload 2
	echo 0 >$D/stack_map
	workload 1
	echo 0 >"$inst/events/stackmap/enable"
	echo 0 >"$inst/events/sched/sched_switch/enable"
	rmdir "$inst"
	n=$((n + 1))
done

m=0
while [ "$m" -lt "$RECORDS" ]; do
	step "record $m: trace-cmd record -B rec, the map reset in the middle"
	trace-cmd record -q -B rec -e stackmap -e sched:sched_switch -o "$SHARE/rec$m.dat" \
		sh -c ". /guest-common.sh; workload 3; echo 0 >$D/stack_map; workload 3"
	m=$((m + 1))
done

kill "$bg"
wait "$bg" 2>/dev/null || true
trace-cmd stop
trace-cmd extract -o "$SHARE/flight.dat" >/dev/null
cat $D/stats >"$SHARE/stats.txt"
trace-cmd reset >/dev/null 2>&1
rmmod stackmap
echo ok >"$SHARE/result"
step "done"
