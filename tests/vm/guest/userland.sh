#!/bin/sh
# Guest side of tests/test_userland.sh: the guest's trace-cmd is another userland's (run-vm.sh --userland:
# trixie's 3.3.1). stackmap.ko on sched_switch and kmalloc, two recordings with that trace-cmd:
#   default.dat   its defaults (3.3.1: file version 7, compressed)
#   instance.dat  the top buffer and an instance, both with the stackmap events, file version 6
# then the module's stack_map and stats, for the host to check every cookie against.
set -eu

D=/sys/kernel/debug/stackmap

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

step "insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch,kmem:kmalloc
step "$(trace-cmd --version 2>&1 | head -n1 || true)"

step "trace-cmd record (its defaults)"
trace-cmd record -q -e stackmap -e sched:sched_switch -e kmem:kmalloc -o "$SHARE/default.dat" \
	sh -c '. /guest-common.sh; workload 10'

step "trace-cmd record (an instance, file version 6)"
trace-cmd record -q --file-version 6 -e stackmap -e sched:sched_switch \
	-B inst1 -e stackmap -e kmem:kmalloc -o "$SHARE/instance.dat" \
	sh -c '. /guest-common.sh; workload 10'

step "save stack_map and stats"
cat $D/stack_map >"$SHARE/stack_map.txt"
cat $D/stats >"$SHARE/stats.txt"
step "rmmod"
rmmod stackmap
step "done"
