#!/bin/sh
# Guest side of the pin-leak test (runs in the VM as /guest.sh, cwd $SHARE): a typed-probe hit that ftrace's
# recursion lock refuses must still unpin its task (#37 item 1).  /stackmap/stackmap.ko is built with
# KCFLAGS=-DSTACKMAP_TEST_FAIL_RECURSION, whose debugfs test_fail_recursion makes the next N typed hits find
# that lock taken.  With typed probes on sched:sched_process_exec, it records, then makes a task on CPU 1 exec
# with one such failure injected (the pinning hit before it pins the task), takes CPU 1 offline, which waits
# for every task pinned there, and brings it back; then checks that ftrace cannot be switched off under an attached
# typed probe (a pin without its record).  Leaves in $SHARE:
#   record.log      trace-cmd record's output
#   stats.txt       the counters after the offline
#   offline.txt     "SECONDS" the offline took, or "hung after BOUND s"
#   result          "ok" once every check passed
# The console is the harness's: this script never prints the words it looks for (see run-vm.sh).
set -eu

D=/sys/kernel/debug/stackmap
CPU1=/sys/devices/system/cpu/cpu1/online
# An offline takes well under a second here; a pinned task makes it wait for good.
BOUND=30

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# read_recursion: set $rec to stats' dropped_recursion, read by the shell itself (no fork, no exec).
read_recursion() {
	while read -r k v; do
		[ "$k" != dropped_recursion ] || rec=$v
	done <$D/stats
}

# uptime_cs: the uptime in hundredths of a second, read by the shell itself (no fork, no exec).
uptime_cs() {
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}"
}

[ -w $CPU1 ] || die "no $CPU1: the guest needs 2 CPUs and CPU hotplug"
insmod "$MODDIR/stackmap.ko" typed_probes=1 || die "insmod typed_probes=1"
[ -e $D/test_fail_recursion ] || die "the module has no $D/test_fail_recursion (built without STACKMAP_TEST_FAIL_RECURSION)"
echo sched:sched_process_exec >$D/tracepoints || die "attach sched:sched_process_exec with typed probes"
[ "$(stat_of typed_tracepoints)" = 1 ] || die "stats typed_tracepoints is $(stat_of typed_tracepoints), not 1"

step "record: trace-cmd record -e stackmap -e sched:sched_process_exec, a workload that execs"
trace-cmd record -q -e stackmap -e sched:sched_process_exec -o "$SHARE/trace.dat" \
	sh -c '. /guest-common.sh; workload 5' >"$SHARE/record.log" 2>&1 || die "trace-cmd record exited $?"
lookups=$(stat_of lookups)
[ "$lookups" -gt 0 ] || die "no lookup while recording: stats lookups is $lookups"
recursion=$(stat_of dropped_recursion)
step "recorded: lookups $lookups, dropped_recursion $recursion, unpinned $(stat_of unpinned)"

# The task execs on CPU 1 (taskset runs sh there, which execs sleep): the pinning hit disables its migration,
# the recording hit finds the recursion lock taken.  Nothing else may exec meanwhile, hence the wait below
# for the drop to be counted, in shell builtins only.
step "inject: one refused recursion lock at the exec of a task on CPU 1"
taskset -c 1 sh -c "echo 1 >$D/test_fail_recursion && exec sleep 600" &
sleeper=$!
n=0
rec=$recursion
while [ "$rec" = "$recursion" ] && [ "$n" -lt 100000 ]; do
	read_recursion
	n=$((n + 1))
done
read -r left <$D/test_fail_recursion
step "injected: dropped_recursion $recursion -> $rec after $n reads of stats; $D/test_fail_recursion reads $left"
[ "$rec" -gt "$recursion" ] || die "the injected failure was not counted: dropped_recursion still $rec"
[ "$left" = 0 ] || die "the injected failure was not consumed ($D/test_fail_recursion reads $left)"

step "offline: echo 0 > $CPU1 (bound $BOUND s)"
rm -f /tmp/offline.done
t0=$(uptime_cs)
(if echo 0 >$CPU1; then echo ok; else echo "the write failed"; fi >/tmp/offline.done) &
i=0
while [ ! -s /tmp/offline.done ] && [ "$i" -lt $((BOUND * 10)) ]; do
	sleep 0.1
	i=$((i + 1))
done
t1=$(uptime_cs)
if [ ! -s /tmp/offline.done ]; then
	echo "hung after $BOUND s" >"$SHARE/offline.txt"
	cat $D/stats >"$SHARE/stats.txt"
	die "taking CPU 1 offline did not complete within $BOUND s (a task left pinned there: grep State /proc/$sleeper/status: $(grep State /proc/$sleeper/status))"
fi
[ "$(cat /tmp/offline.done)" = ok ] || die "echo 0 > $CPU1: $(cat /tmp/offline.done)"
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 100 }')
echo "$secs" >"$SHARE/offline.txt"
[ "$(cat $CPU1)" = 0 ] || die "$CPU1 reads $(cat $CPU1) after the offline"
step "offline: done in $secs s"

echo 1 >$CPU1 || die "echo 1 > $CPU1"
[ "$(cat $CPU1)" = 1 ] || die "$CPU1 reads $(cat $CPU1) after the online"
kill "$sleeper"
wait "$sleeper" 2>/dev/null || true
cat $D/stats >"$SHARE/stats.txt"
step "online again; stats: lookups $(stat_of lookups), dropped_recursion $(stat_of dropped_recursion), unpinned $(stat_of unpinned)"
# A hit's pin and its record are two calls of the typed stub: ftrace switched off between them would leave the
# task pinned, so the module's ftrace_ops is permanent (FTRACE_OPS_FL_PERMANENT): the sysctl is refused while a
# typed probe is attached, and a typed attach is refused while ftrace is off.  From 7.x the sysctl no longer
# switches ftrace off at all (the write fails with EOPNOTSUPP, attached or not).  $SHARE/ftrace_enabled.txt
# says which held.
FE=/proc/sys/kernel/ftrace_enabled
step "ftrace_enabled: echo 0 with nothing attached"
echo '!sched:sched_process_exec' >>$D/tracepoints || die "detach sched:sched_process_exec"
if err=$( (echo 0 >$FE) 2>&1); then
	if (echo sched:sched_process_exec >>$D/tracepoints) 2>/dev/null; then
		echo 1 >$FE
		die "a typed attach succeeded with $FE at 0"
	fi
	echo 1 >$FE || die "echo 1 > $FE"
	echo sched:sched_process_exec >>$D/tracepoints || die "attach sched:sched_process_exec again with $FE at 1"
	if (echo 0 >$FE) 2>/dev/null; then
		echo 1 >$FE
		die "echo 0 > $FE succeeded with sched:sched_process_exec attached through typed probes"
	fi
	[ "$(cat $FE)" = 1 ] || die "$FE reads $(cat $FE) after the refused write"
	echo "refused while attached" >"$SHARE/ftrace_enabled.txt"
else
	case $err in
	*"not supported"*) ;;
	*) die "echo 0 > $FE failed with nothing attached: $err" ;;
	esac
	echo "never switches ftrace off" >"$SHARE/ftrace_enabled.txt"
fi
step "ftrace_enabled: $(cat "$SHARE/ftrace_enabled.txt")"

rmmod stackmap || die "rmmod"
echo ok >"$SHARE/result"
step "done"
