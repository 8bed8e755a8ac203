#!/bin/sh
# What every guest script shares: run-vm.sh installs this file as /guest-common.sh in the initramfs, and each
# script in tests/vm/guest/ sources it first; a command a script records sources it too
# (`trace-cmd record ... sh -c '. /guest-common.sh; workload 10'`).  POSIX sh (busybox ash).  The guest's
# output goes to the console the harness scans for kernel reports (run-vm.sh SPLAT_RE): nothing here prints
# those words.  This is the GUEST's library; the host-side test scripts (tests/vm/test_*.sh) share another one,
# tests/vm/lib.sh (bash, on the host: fail, run_guest, decode, the stats identity).

# step WHAT...: one "guest: WHAT" progress line on the console.
step() {
	echo "guest: $*"
}

# die WHY...: a "guest: FAIL: WHY" line, then exit 1 (the run's exit code).
die() {
	echo "guest: FAIL: $*"
	exit 1
}

# stat_of KEY: the value of counter KEY in the module's stats file (empty when there is no such line).
stat_of() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/stackmap/stats
}

# begin PHASE [insmod args...]: a phase of a guest script starts: its progress line, its output directory
# $SHARE/PHASE and the module ($KO_FILE, default $MODDIR/stackmap.ko: a phase may load a test build) loaded
# with the args; $phase names it (for the script's own end()).
begin() {
	phase=$1
	shift
	step "$phase"
	mkdir -p "$SHARE/$phase"
	insmod "${KO_FILE:-$MODDIR/stackmap.ko}" "$@"
}

# workload N: N rounds of `ls -R $WORKLOAD_DIR` (default the sched events' directory in tracefs: openat,
# getdents and reads of tracefs files) and a two-process pipe (fork, exec, wakeups, context switches).
workload() {
	i=0
	while [ "$i" -lt "$1" ]; do
		ls -R "${WORKLOAD_DIR:-/sys/kernel/tracing/events/sched}" >/dev/null
		echo x | cat >/dev/null
		i=$((i + 1))
	done
}

# read_loop N: open a file N times from this shell itself, no fork: every allocation is this task's.
read_loop() {
	i=0
	while [ "$i" -lt "$1" ]; do
		read -r _ </sys/kernel/tracing/events/kmem/kmalloc/id
		i=$((i + 1))
	done
}

# dir_loop N: list directories N times by the shell's own globbing, no fork: readdir allocations that `ls -R` of
# the same directories makes too, all this task's.
dir_loop() {
	i=0
	while [ "$i" -lt "$1" ]; do
		for _ in /sys/devices/system/*/* /sys/kernel/tracing/events/kmem/*/*; do :; done
		i=$((i + 1))
	done
}

# any_alive PID...: true while one of the PIDs is a live process.
any_alive() {
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

# flip_cpus OUT PID...: while any of the PIDs lives, pin every live one to CPU 0, then 50 ms later to CPU 1, and so
# on (sched_setaffinity moves a running task through its CPU's stopper; children inherit the affinity); writes
# "PIDS FLIPS" (the PIDs comma-separated, the affinity changes made) to OUT.
flip_cpus() {
	out=$1
	shift
	cpu=0
	flips=0
	while any_alive "$@"; do
		for p in "$@"; do
			taskset -p -c "$cpu" "$p" >/dev/null 2>&1 && flips=$((flips + 1))
		done
		cpu=$((1 - cpu))
		sleep 0.05
	done
	echo "$(echo "$@" | tr ' ' ',') $flips" >"$out"
}

# allocate N: N rounds of `ls -R` of $ALLOC_DIRS (default sysfs's devices/system and tracefs's kmem events):
# getname, inode, dentry and kernfs allocations (kmem:kmalloc, kmem:kmem_cache_alloc).
allocate() {
	i=0
	while [ "$i" -lt "$1" ]; do
		# shellcheck disable=SC2086 # a list of directories
		ls -R ${ALLOC_DIRS:-/sys/devices/system /sys/kernel/tracing/events/kmem} >/dev/null 2>&1 || true
		i=$((i + 1))
	done
}
