#!/bin/sh
# Guest script (tests/vm/run-vm.sh --guest-script): record the traces the
# decoder's end-to-end checks read.  Leaves in $SHARE:
#   inst.dat    stackmap cookies on sched_switch in the top buffer, and
#               sched_wakeup with ftrace kernel_stack events (-O stacktrace)
#               in a second buffer instance "stk"
#   kstack.dat  sched_switch with ftrace kernel_stack events only
#   big.dat     stackmap cookies on sched_switch, sched_wakeup with
#               kernel_stack events, over a longer workload (for timing)
set -eu

WORK='i=0; while [ $i -lt 10 ]; do ls -R /sys/kernel/debug/tracing/events >/dev/null; echo x | cat >/dev/null; sleep 0.01; i=$((i + 1)); done'

echo "guest: insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
echo "guest: record inst.dat"
trace-cmd record -q -e stackmap -e sched:sched_switch \
	-B stk -e sched:sched_wakeup -O stacktrace \
	-o "$SHARE/inst.dat" sh -c "$WORK"
echo "guest: record big.dat"
trace-cmd record -q -b 20000 -e stackmap -e sched:sched_switch \
	-e sched:sched_wakeup -O stacktrace \
	-o "$SHARE/big.dat" sh -c "$(echo "$WORK" | sed 's/-lt 10/-lt 300/')"
rmmod stackmap
echo "guest: record kstack.dat"
trace-cmd record -q -e sched:sched_switch -O stacktrace \
	-o "$SHARE/kstack.dat" sh -c "$WORK"
echo "guest: done"
