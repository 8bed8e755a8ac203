#!/bin/sh
# Guest side of the end-to-end test (runs in the VM as /guest.sh, cwd $SHARE).
# Loads stackmap.ko attached to sched:sched_switch, records a real workload
# with stock trace-cmd, and leaves trace.dat, the module's stack_map and
# stats in $SHARE for the host to decode and compare.
set -eu

D=/sys/kernel/debug/stackmap

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

step "insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
test "$(cat $D/tracepoints)" = "sched:sched_switch"

step "trace-cmd record"
# A workload that switches tasks: pipes between processes, short sleeps.
trace-cmd record -q -e stackmap -e sched:sched_switch -o "$SHARE/trace.dat" \
	sh -c 'i=0; while [ $i -lt 20 ]; do ls -R /sys/kernel/tracing/events >/dev/null; echo x | cat >/dev/null; sleep 0.01; i=$((i + 1)); done'

step "save stack_map and stats"
cat $D/stack_map > "$SHARE/stack_map.txt"
cat $D/stats > "$SHARE/stats.txt"

step "rmmod"
rmmod stackmap
step "done"
