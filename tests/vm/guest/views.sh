#!/bin/sh
# Guest side of tests/vm/record_views.sh: real recordings whose event text
# fgdecode must print exactly as trace-cmd report does
# (tests/decoder/test_identity.sh), with events that have libtraceevent
# plugins (sched, kmem, irq, function).  Leaves in $SHARE:
#   views.dat   -e stackmap -e sched -e kmem:kmalloc -e kmem:kfree -e irq
#               -p function -l vfs_read -l vfs_write, the module's cookies
#               on sched_switch and kmalloc
#   views.stack_map.txt  the module's stack_map after that recording
#   kstack.dat  -e sched -e kmem:kmalloc -e irq -p function -l vfs_read
#               with -O stacktrace (ftrace kernel_stack events), no module
set -eu

D=/sys/kernel/debug/stackmap
WORK='i=0; while [ $i -lt 3 ]; do ls /sys/kernel/tracing >/dev/null; echo x | cat >/dev/null; sleep 0.01; i=$((i + 1)); done'

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

step "insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
echo kmem:kmalloc >>$D/tracepoints
step "record views.dat"
trace-cmd record -q -e stackmap -e sched -e kmem:kmalloc -e kmem:kfree -e irq \
	-p function -l vfs_read -l vfs_write -o "$SHARE/views.dat" sh -c "$WORK"
cat $D/stack_map >"$SHARE/views.stack_map.txt"
rmmod stackmap
step "record kstack.dat"
trace-cmd record -q -e sched -e kmem:kmalloc -e irq -O stacktrace \
	-p function -l vfs_read -o "$SHARE/kstack.dat" sh -c "$WORK"
step "done"
