#!/bin/sh
# Guest side of tests/test_userland.sh: the guest's trace-cmd is another userland's (run-vm.sh --userland:
# trixie's 3.3.1). stackmap.ko on sched_switch and kmalloc, two recordings with that trace-cmd:
#   default.dat   its defaults (3.3.1: file version 7, compressed)
#   instance.dat  the top buffer and an instance, both with the stackmap events, file version 6
# then the module's stack_map and stats, for the host to check every cookie against, and, with the tracepoints
# detached, a recording through the record front end (/extra: the root's record/trace-cmd and
# stackmap-snapshot, installed as make install puts them, and libtracecmd.so.1) over that trace-cmd:
#   frontend.dat  trace-cmd record -O stackmap: the front end attaches, records, detaches and stores the snapshot
#   extract.dat   a flight recorder: the module attached by hand, trace-cmd start -b 64 and stop (that trace-cmd
#                 through the front end), detached, then the front end's extract, which stores the snapshot
#                 (extract.stack_map: the listing it must equal)
set -eu

D=/sys/kernel/debug/stackmap

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

step "insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch,kmem:kmalloc
# 3.3.1 prints an empty line first.
step "$(trace-cmd --version 2>&1 | sed -n '/version/{p;q}' || true)"

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

step "front end: trace-cmd record -O stackmap over $(command -v trace-cmd)"
echo '!sched:sched_switch' >>$D/tracepoints
echo '!kmem:kmalloc' >>$D/tracepoints
mkdir -p /usr/local/bin
cp /extra/trace-cmd /extra/stackmap-snapshot /usr/local/bin/
PATH=/usr/local/bin:$PATH LD_LIBRARY_PATH=/extra trace-cmd record -q -O stackmap -e sched:sched_switch -e kmem:kmalloc \
	-o "$SHARE/frontend.dat" sh -c '. /guest-common.sh; workload 10'
# The front end detached what it attached.
test -z "$(cat $D/tracepoints)"

step "front end: start -b 64, workload, stop, extract over $(command -v trace-cmd)"
echo sched:sched_switch >>$D/tracepoints
PATH=/usr/local/bin:$PATH LD_LIBRARY_PATH=/extra trace-cmd start -b 64 -e stackmap -e sched:sched_switch
sh -c '. /guest-common.sh; workload 10'
PATH=/usr/local/bin:$PATH LD_LIBRARY_PATH=/extra trace-cmd stop
# Detached before the listing, so the map does not change until extract stores it.
echo '!sched:sched_switch' >>$D/tracepoints
cat $D/stack_map >"$SHARE/extract.stack_map"
PATH=/usr/local/bin:$PATH LD_LIBRARY_PATH=/extra trace-cmd extract -o "$SHARE/extract.dat"
PATH=/usr/local/bin:$PATH LD_LIBRARY_PATH=/extra trace-cmd reset >/dev/null 2>&1 || echo "guest: trace-cmd reset failed"
step "rmmod"
rmmod stackmap
step "done"
