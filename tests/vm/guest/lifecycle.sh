#!/bin/sh
# Guest side of the lifecycle test (runs in the VM as /guest.sh, cwd $SHARE).
# Phases, each leaving its files in $SHARE/<phase>/ for the host:
#   badinput   garbage and over-long writes to every control file fail with
#              EINVAL (or ENOENT for unknown names) and change nothing, an
#              attached event cannot be attached again under another
#              spelling; a map too large to allocate fails the load cleanly
#   reload     20 x (load, attach, work, reset, unload), 3 of them recording:
#              generations strictly increase across resets and reloads;
#              vmalloc and slab figures before and after
#   functions  stacks at the entry of do_sys_openat2 start in that function
#   params     the same control through /sys/module/stackmap/parameters
#   instance   a recording into a trace-cmd instance (-B) while the top-level
#              buffer is on: every cookie in it is defined in it
#   capture    stack_trace_save and unwind_next_frame hooked beside
#              sched:sched_switch: the captures they would ask for from
#              inside a capture are dropped and counted (recursion)
#   modglob    a function glob of a module (dummy_dev_*, dummy.ko given to the
#              guest) and two of the kernel's; the module unloaded, the next
#              change drops its glob and reports it, the others stay hooked
# The harness fails the run on any BUG/WARNING/Oops on the console.
set -eu

D=/sys/kernel/debug/stackmap
T=/sys/kernel/tracing

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

# expect_fail FILE DATA: writing DATA to FILE must fail.
expect_fail() {
	if printf '%s' "$2" >"$1" 2>/dev/null; then
		die "write of '$2' to $1 succeeded"
	fi
}

phase_badinput() {
	mkdir -p "$SHARE/badinput"
	step "badinput"
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
	before_tp=$(cat $D/tracepoints)
	before_gen=$(awk '$1 == "generation" { print $2 }' $D/stats)
	long=$(head -c 600 /dev/zero | tr '\0' 'a')
	for f in stack_map tracepoints functions; do
		expect_fail $D/$f "$long"
		expect_fail $D/$f "two words"
		expect_fail $D/$f "!"
	done
	expect_fail $D/stack_map "1"
	expect_fail $D/stack_map "reset"
	expect_fail $D/tracepoints "nosuchsystem:nosuchevent"
	expect_fail $D/tracepoints "stackmap:stack_cookie"
	expect_fail $D/tracepoints "sched:sched_switch"
	# One event, one attachment: no second probe under another spelling.
	expect_fail $D/tracepoints "foo:sched_switch"
	expect_fail $D/tracepoints "sched_switch"
	expect_fail $D/tracepoints ":sched_switch"
	expect_fail $D/tracepoints "sched:"
	expect_fail $D/tracepoints "sched:sched_switch:x"
	expect_fail $D/tracepoints "!sched:sched_wakeup"
	expect_fail $D/functions "no_such_function_xyz"
	expect_fail $D/functions "!no_such_function_xyz"
	[ "$(cat $D/tracepoints)" = "$before_tp" ] || die "tracepoints changed"
	[ -z "$(cat $D/functions)" ] || die "functions changed"
	[ "$(awk '$1 == "generation" { print $2 }' $D/stats)" = "$before_gen" ] || die "generation changed"
	rmmod stackmap
	if insmod "$MODDIR/stackmap.ko" max_entries=1073741824 max_frames=1073741824 2>/dev/null; then
		die "a 1 Gi-entry map loaded"
	fi
	if insmod "$MODDIR/stackmap.ko" max_depth=0 2>/dev/null; then
		die "max_depth=0 loaded"
	fi
	grep -q '^stackmap ' /proc/modules && die "module left loaded"
	echo ok >"$SHARE/badinput/result"
}

meminfo() {
	awk '$1 == "VmallocUsed:" || $1 == "SUnreclaim:" { printf "%s %s ", $1, $2 } END { print "" }' /proc/meminfo
}

phase_reload() {
	mkdir -p "$SHARE/reload"
	step "reload: 20 cycles"
	out=$SHARE/reload
	: >"$out/generations"
	n=0
	while [ $n -lt 20 ]; do
		insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
		echo do_sys_openat2 >>$D/functions
		awk '$1 == "generation" { print $2 }' $D/stats >>"$out/generations"
		if [ $((n % 7)) -eq 0 ]; then
			trace-cmd record -q -e stackmap -e sched:sched_switch -o /tmp/t.dat sh -c '. /guest-common.sh; workload 3'
		else
			workload 3
		fi
		echo 0 >$D/stack_map
		awk '$1 == "generation" { print $2 }' $D/stats >>"$out/generations"
		rmmod stackmap
		[ $n -eq 0 ] && meminfo >"$out/mem_after_first"
		n=$((n + 1))
	done
	meminfo >"$out/mem_after_last"
}

phase_functions() {
	mkdir -p "$SHARE/functions"
	step "functions: do_sys_openat2"
	insmod "$MODDIR/stackmap.ko"
	echo do_sys_openat2 >$D/functions
	trace-cmd record -q -e stackmap -o "$SHARE/functions/trace.dat" sh -c '. /guest-common.sh; workload 5'
	cat $D/stats >"$SHARE/functions/stats.txt"
	rmmod stackmap
}

# Control through module parameters (what works under lockdown, where
# debugfs refuses writable files): attach, list, detach, reset, bad input.
phase_params() {
	P=/sys/module/stackmap/parameters
	step "params: control through $P"
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch,nosuch:event
	[ "$(cat $P/tracepoints)" = sched:sched_switch ] || die "load-time tracepoints: $(cat $P/tracepoints)"
	echo sched:sched_waking >$P/tracepoints
	[ "$(cat $P/tracepoints)" = sched:sched_switch,sched:sched_waking ] || die "attach: $(cat $P/tracepoints)"
	[ "$(cat $D/tracepoints | tr '\n' ,)" = sched:sched_switch,sched:sched_waking, ] || die "debugfs disagrees"
	echo '!sched:sched_switch' >$P/tracepoints
	[ "$(cat $P/tracepoints)" = sched:sched_waking ] || die "detach: $(cat $P/tracepoints)"
	expect_fail $P/tracepoints "sched:sched_waking"
	expect_fail $P/tracepoints "foo:sched_switch"
	expect_fail $P/tracepoints "!sched:sched_switch"
	echo do_sys_openat2 >$P/functions
	[ "$(cat $P/functions)" = do_sys_openat2 ] || die "functions: $(cat $P/functions)"
	expect_fail $P/functions "no_such_function_xyz"
	echo '!do_sys_openat2' >$P/functions
	[ -z "$(cat $P/functions)" ] || die "functions not detached: $(cat $P/functions)"
	workload 3
	gen=$(awk '$1 == "generation" { print $2 }' $D/stats)
	echo 1 >$P/reset
	[ "$(awk '$1 == "generation" { print $2 }' $D/stats)" -gt "$gen" ] || die "reset through $P/reset"
	expect_fail $P/reset 0
	rmmod stackmap
	echo ok >"$SHARE/params.result"
}

phase_instance() {
	mkdir -p "$SHARE/instance"
	step "instance: trace-cmd record -B with the top-level buffer on"
	echo 1 >$T/tracing_on
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
	trace-cmd record -q -B inst -e stackmap -e sched:sched_switch -o "$SHARE/instance/trace.dat" \
		sh -c '. /guest-common.sh; workload 5'
	rmmod stackmap
}

phase_modglob() {
	out=$SHARE/modglob
	mkdir -p "$out"
	if [ ! -e "$MODDIR/dummy.ko" ]; then
		echo "no dummy.ko" >"$out/skipped"
		return
	fi
	step "modglob: dummy_dev_* of dummy.ko, then rmmod dummy"
	insmod "$MODDIR/stackmap.ko"
	# Only the module has such functions: the glob is the module's alone.
	expect_fail $D/functions "dummy_dev_*"
	insmod "$MODDIR/dummy.ko"
	echo 'dummy_dev_*' >>$D/functions
	echo do_sys_openat2 >>$D/functions
	rmmod dummy
	# The next change finds the glob matching nothing and drops it; the others stay on.
	echo vfs_read >>$D/functions
	cat $D/functions >"$out/functions.txt"
	cat /sys/module/stackmap/parameters/functions >"$out/param.txt"
	trace-cmd record -q -e stackmap -o "$out/trace.dat" sh -c '. /guest-common.sh; workload 3'
	cat $D/stats >"$out/stats.txt"
	dmesg | grep 'function glob' >"$out/dmesg.txt" || true
	rmmod stackmap
}

phase_capture() {
	out=$SHARE/capture
	mkdir -p "$out"
	step "capture: function hooks on the capture path"
	insmod "$MODDIR/stackmap.ko" tracepoints=sched:sched_switch
	for f in stack_trace_save unwind_next_frame; do
		echo $f >>$D/functions 2>/dev/null || true
	done
	cat $D/functions >"$out/functions.txt"
	trace-cmd record -q -e stackmap -e sched:sched_switch -o "$out/trace.dat" sh -c '. /guest-common.sh; workload 2'
	cat $D/stats >"$out/stats.txt"
	rmmod stackmap
}

phase_badinput
phase_reload
phase_functions
phase_params
phase_instance
phase_capture
phase_modglob
step "done"
