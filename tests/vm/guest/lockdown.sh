#!/bin/sh
# Guest side of the lockdown test (runs in the VM as /guest.sh, cwd $SHARE) on the self-built kernel booted with
# lockdown=integrity, as Debian runs under Secure Boot. /stackmap/stackmap.ko is signed with the kernel's own
# build key, /extra/unsigned.ko is the same module unsigned. Leaves in $SHARE:
#   lockdown.txt    /sys/kernel/security/lockdown
#   unsigned.err    why insmod refused the unsigned module
#   dmesg.txt       the kernel log after the signed module loaded (what it said at load is below the console's level)
#   modes.txt       the mode of each debugfs file
#   trace.dat       trace-cmd record -e stackmap -e sched:sched_switch, attached through the module parameters
#   stack_map.txt   the map read back through debugfs
#   stats.txt       the counters after the reset through the reset parameter
#   result          "ok" once every check passed
# The console is the harness's: this script never prints the words it looks for (see run-vm.sh).
set -eu

D=/sys/kernel/debug/stackmap
P=/sys/module/stackmap/parameters

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

mkdir -p /sys/kernel/security
mount -t securityfs securityfs /sys/kernel/security || die "mount securityfs"
cat /sys/kernel/security/lockdown >"$SHARE/lockdown.txt"
grep -q '\[integrity\]' "$SHARE/lockdown.txt" || die "lockdown is '$(cat "$SHARE/lockdown.txt")', not integrity"
step "lockdown: $(cat "$SHARE/lockdown.txt")"

# The kernel enforces signatures: without this the rest proves nothing.
if insmod /extra/unsigned.ko 2>"$SHARE/unsigned.err"; then
	die "the unsigned module was loaded under lockdown"
fi
step "unsigned module refused: $(cat "$SHARE/unsigned.err")"

insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch || die "insmod of the signed module"
dmesg >"$SHARE/dmesg.txt"
for f in stack_map stats tracepoints functions; do
	echo "$f $(stat -c %a $D/$f)" >>"$SHARE/modes.txt"
done
step "debugfs modes: $(tr '\n' ' ' <"$SHARE/modes.txt")"
# debugfs refuses to open any of its files for writing under lockdown, even for root.
if (echo 0 >$D/stack_map) 2>/dev/null; then
	die "a write to $D/stack_map was accepted under lockdown"
fi
if (echo sched:sched_waking >$D/tracepoints) 2>/dev/null; then
	die "a write to $D/tracepoints was accepted under lockdown"
fi
[ "$(cat $P/tracepoints)" = sched:sched_switch ] || die "load-time tracepoints: '$(cat $P/tracepoints)'"

step "record: trace-cmd record -e stackmap -e sched:sched_switch sleep 1"
trace-cmd record -q -e stackmap -e sched:sched_switch -o "$SHARE/trace.dat" sleep 1 \
	>"$SHARE/record.log" 2>&1 || die "trace-cmd record exited $?"
cat $D/stack_map >"$SHARE/stack_map.txt"
[ -s "$SHARE/stack_map.txt" ] || die "the map read back empty"

echo do_sys_openat2 >$P/functions || die "attach a function through $P/functions"
cat /proc/version >/dev/null
echo '!do_sys_openat2' >$P/functions || die "detach a function through $P/functions"
gen=$(stat_of generation)
echo 1 >$P/reset || die "reset through $P/reset"
cat $D/stats >"$SHARE/stats.txt"
[ "$(stat_of generation)" -gt "$gen" ] || die "the reset did not move the generation from $gen"
step "reset: generation $gen -> $(stat_of generation)"
rmmod stackmap || die "rmmod"
echo ok >"$SHARE/result"
step "done"
