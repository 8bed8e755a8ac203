#!/bin/sh
# Guest side of the answers test (test_answers.sh; runs as /guest.sh, cwd
# $SHARE).  stackmap.ko attached to kmem:kmalloc, sched:sched_switch and
# sched:sched_waking (recorded in base.dat only, for --wakers);
# three recordings of /extra/anstool with stock trace-cmd:
#   base.dat      100 messages of 976 bytes (struct msg_msg: 1024 bytes
#                 requested), a second queue with no message (so that both
#                 traces create two queues), then 4 sleeps of 250 ms
#   new.dat       after a 1 s sleep (busybox's, not anstool's), the same
#                 100 messages, then 50 of 3952 bytes (4000 requested)
#   nosched.dat   kmem:kmalloc only (no sched_switch in the trace), 10
#                 messages after a 1 s sleep
set -eu

D=/sys/kernel/debug/stackmap
T=/extra/anstool

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

step "insmod stackmap.ko"
insmod "$MODDIR/stackmap.ko"
echo kmem:kmalloc >>$D/tracepoints
echo sched:sched_switch >>$D/tracepoints
echo sched:sched_waking >>$D/tracepoints

# A command shorter than trace-cmd record's start-up can end before its per-CPU
# recorders are ready: stopped then, a recorder leaves its CPU's events in the
# ring buffer, unread (seen once on 6.12: new.dat had 58 events, and `trace-cmd
# report --stat` showed 586 entries left).  The short ones start with a sleep.
step "record base.dat"
trace-cmd record -q -e stackmap -e kmem:kmalloc -e sched:sched_switch -e sched:sched_waking -o "$SHARE/base.dat" \
	sh -c "$T msg 100 976 && $T msg 0 976 && $T sleep 4 250"
step "record new.dat"
trace-cmd record -q -e stackmap -e kmem:kmalloc -e sched:sched_switch -o "$SHARE/new.dat" \
	sh -c "sleep 1 && $T msg 100 976 && $T msg 50 3952"
step "record nosched.dat"
trace-cmd record -q -e stackmap -e kmem:kmalloc -o "$SHARE/nosched.dat" sh -c "sleep 1 && $T msg 10 976"

step "rmmod"
rmmod stackmap
step "done"
