#!/bin/sh
# Guest side of the record front end test (runs in the VM as /guest.sh, cwd
# $SHARE).  /extra holds the front end (trace-cmd) and stackmap-snapshot as
# make install wrote them, libtracecmd.so.1 and sigdfl (runs a command in a
# new session with SIGINT at its default, as a terminal's foreground job has
# it).  They go where make install puts them, /usr/local/bin, and PATH is
# Debian's root default, so "trace-cmd" is the installed spelling; the stock
# trace-cmd stays in /usr/bin.  Phases, each leaving NAME.dat, NAME.rc,
# NAME.err and module state files in $SHARE/fe/:
#   noload   -O stackmap without the module: refused, exit 1
#   plain    stock record without stackmap events (for the byte-for-byte
#            report comparison on the host)
#   sched    -O stackmap -e sched:sched_switch around a workload
#   func     -O stackmap -p function -l do_sys_openat2
#   reset    a map reset in the middle of the recording
#   stale    a reset in the middle with the old generation's definitions
#            filtered out (explicit stackmap events with -f)
#   int      Ctrl-C (SIGINT to the process group) while recording
#   fail     the real record fails (unknown option): exit code passed on
#   flight   flight recorder: the module attached by hand, trace-cmd start
#            -b 64, a workload long enough to wrap the buffer, trace-cmd
#            stop, detach, trace-cmd extract through the front end (the map
#            snapshot stored in flight.dat resolves the cookies whose
#            definitions were overwritten)
set -eu

D=/sys/kernel/debug/stackmap
O=$SHARE/fe

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# attachments NAME: the module's attachment files now.
attachments() {
	cat $D/tracepoints >"$O/$1.tracepoints"
	cat $D/functions >"$O/$1.functions"
}

# fe NAME ARGS...: run the front end, keep its exit code and stderr.
fe() {
	name=$1
	shift
	set +e
	trace-cmd "$@" 2>"$O/$name.err"
	echo $? >"$O/$name.rc"
	set -e
}

mkdir -p /usr/local/bin "$O"
cp /extra/trace-cmd /extra/stackmap-snapshot /usr/local/bin/
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LD_LIBRARY_PATH=/extra
test "$(command -v trace-cmd)" = /usr/local/bin/trace-cmd
step "noload"
fe noload record -q -O stackmap -e sched:sched_switch -o "$O/noload.dat" true

step "plain (stock, no stackmap events)"
/usr/bin/trace-cmd record -q -e sched:sched_switch -o "$O/plain.dat" sh -c '. /guest-common.sh; workload 10'

step "insmod (no attachments)"
insmod "$MODDIR/stackmap.ko"
attachments before

step "sched"
echo 0 >/sys/kernel/tracing/options/record-tgid
fe sched record -q -O stackmap -e sched:sched_switch -o "$O/sched.dat" \
	sh -c ". /guest-common.sh; workload 20; cat $D/tracepoints >$O/sched.during"
attachments sched
cat $D/stack_map >"$O/sched.stack_map"
# The front end turned record-tgid on for the recording only; the tgids of the tasks alive now, from /proc, are
# what the host checks the stored ones against.
cat /sys/kernel/tracing/options/record-tgid >"$O/sched.record_tgid_after"
for f in /proc/[0-9]*/status; do
	awk '$1 == "Pid:" { p = $2 } $1 == "Tgid:" { t = $2 } END { if (p != "") print p, t }' "$f" 2>/dev/null || true
done >"$O/sched.proc_tgids"

step "func"
fe func record -q -O stackmap -p function -l do_sys_openat2 -o "$O/func.dat" \
	sh -c ". /guest-common.sh; workload 10; cat $D/functions >$O/func.during"
attachments func
cat $D/stack_map >"$O/func.stack_map"

step "reset in the middle"
fe reset record -q -O stackmap -e sched:sched_switch -o "$O/reset.dat" \
	sh -c ". /guest-common.sh; workload 10; echo 0 >$D/stack_map; workload 10"
attachments reset
cat $D/stack_map >"$O/reset.stack_map"

step "stale: reset in the middle, old definitions filtered out"
old=$(awk '$1 == "generation" { print $2 }' $D/stats)
echo "$old" >"$O/stale.old_generation"
fe stale record -q -O stackmap -e sched:sched_switch -e stackmap:stack_cookie \
	-e stackmap:stack_define -f "cookie > $(((old << 32) | 0xffffffff))" \
	-o "$O/stale.dat" sh -c ". /guest-common.sh; workload 10; echo 0 >$D/stack_map; workload 10"
attachments stale

step "int: SIGINT to the front end's process group while recording"
/extra/sigdfl trace-cmd record -q -O stackmap -e sched:sched_switch -o "$O/int.dat" \
	sleep 60 2>"$O/int.err" &
pid=$!
i=0
while ! grep -q sched:sched_switch $D/tracepoints && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done
cat $D/tracepoints >"$O/int.during"
# Interrupt the recording itself, not its setup: the real record starts the
# command (sleep 60) once it records (a slow guest took more than 3 s).  Wait
# for the command's own process: "sleep 60" is also in the arguments of the
# front end and of the real record, and a SIGINT before the real record sets
# its handler kills it (exit 130, no trace.dat).
i=0
while ! ps -o args | grep -qx 'sleep 60' && [ $i -lt 150 ]; do
	sleep 0.2
	i=$((i + 1))
done
sleep 1
kill -INT "-$pid"	# busybox: a negative pid is the process group
set +e
wait $pid
echo $? >"$O/int.rc"
set -e
attachments int

step "fail: the real record fails"
fe fail record -q -O stackmap -e sched:sched_switch --no-such-option -o "$O/fail.dat" true
attachments fail

step "flight: start -b 64, workload, stop, extract through the front end"
echo sched:sched_switch >>$D/tracepoints
fe flight_start start -b 64 -e stackmap -e sched:sched_switch
sh -c '. /guest-common.sh; end=$(($(date +%s) + 8)); while [ "$(date +%s)" -lt $end ]; do workload 2; done'
fe flight_stop stop
# Detached before the listing, so the map does not change until extract
# stores it: the snapshot must equal flight.stack_map.
echo '!sched:sched_switch' >>$D/tracepoints
cat $D/stack_map >"$O/flight.stack_map"
fe flight extract -o "$O/flight.dat"
attachments flight
/usr/bin/trace-cmd reset >/dev/null 2>&1 || echo "guest: trace-cmd reset failed"

rmmod stackmap
step "done"
