#!/bin/sh
# Guest side of the benchmarks (tests/bench/run.sh); runs in the VM as
# /guest.sh, cwd $SHARE.  /extra holds benchtool (static helper) and
# bench.conf, which sets PARTS (any of: b1 b2 b5 b6 b9 b9s peers) and the sizes;
# for b9s also the record front end (trace-cmd), stackmap-snapshot and the
# libtracecmd.so.1 it links.
# Results go to $SHARE/results.txt as "key value" lines; B1's and B9's traces
# and the module's stats are left in $SHARE for the host.  Times are the guest's
# CLOCK_MONOTONIC (TCG: ratios are meaningful, absolute times are not).
set -eu

# shellcheck source=/dev/null
. /extra/bench.conf
T=/extra/benchtool
D=/sys/kernel/debug/stackmap
TR=/sys/kernel/tracing
OUT=$SHARE/results.txt
# The syscall benchtool loop makes (getppid), by the guest's own numbers.
GETPPID_NR=$($T loop-nr)

# shellcheck source=tests/vm/guest/lib.sh
. /guest-common.sh

emit() {
	echo "$*" >>"$OUT"
}

# Median of the numbers in file $1; fails on an empty file.
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { if (!NR) exit 1; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

load_module() {
	insmod "$MODDIR/stackmap.ko" "$@"
}

# --- B1: bytes per stack-bearing event, same workload with and without stackmap

run_b1() {
	step "B1: -O stacktrace without the module"
	trace-cmd record -q -e sched:sched_switch -O stacktrace -o "$SHARE/b1_stacktrace.dat" \
		sh -c "$(b1_cmd)"
	step "B1: stackmap"
	load_module tracepoints=sched:sched_switch
	trace-cmd record -q -e stackmap -e sched:sched_switch -o "$SHARE/b1_stackmap.dat" \
		sh -c "$(b1_cmd)"
	cat $D/stats >"$SHARE/b1_stats.txt"
	rmmod stackmap
}

# The B1 workload as one shell command line, for trace-cmd record: $1
# rounds (default B1_ITERS).
b1_cmd() {
	echo "i=0; while [ \$i -lt ${1:-$B1_ITERS} ]; do ls -R /sys/kernel/tracing/events >/dev/null; echo x | cat >/dev/null; sleep 0.01; i=\$((i + 1)); done"
}

# --- B2: a long recording with stacks on every event, for decode throughput
#
# The same fixed amount of work (B2_ITERS rounds of two workers listing
# tracefs, reading every /proc/PID/status and running a pipe) recorded twice
# with stacks on kmem:kmalloc, kmem:kfree and sched:sched_switch: with the
# module, and with -O stacktrace without it.  The traces are written to the
# guest's memory and copied to $SHARE at the end.  Big per-CPU buffers keep
# the reader from losing events; the host counts what was lost anyway.

B2_EVENTS="kmem:kmalloc kmem:kfree sched:sched_switch"

b2_cmd() {
	echo "w() { i=0; while [ \$i -lt $B2_ITERS ]; do ls -R $TR/events >/dev/null; cat /proc/[0-9]*/status >/dev/null 2>&1; echo x | cat >/dev/null; i=\$((i + 1)); done; }; w & w; wait"
}

# Print "-e EVENT" for each of $B2_EVENTS.
b2_event_args() {
	for e in $B2_EVENTS; do
		printf -- '-e %s ' "$e"
	done
}

run_b2() {
	step "B2: stackmap, $B2_ITERS rounds"
	load_module tracepoints="$(echo "$B2_EVENTS" | tr ' ' ,)"
	t0=$($T now)
	# shellcheck disable=SC2046 # one word per option
	trace-cmd record -q -b "$B2_BUFFER_KB" -e stackmap $(b2_event_args) \
		-o /tmp/b2_stackmap.dat sh -c "$(b2_cmd)"
	emit "b2_record_sm_ns $(($($T now) - t0))"
	cat $D/stats >"$SHARE/b2_stats.txt"
	rmmod stackmap
	step "B2: -O stacktrace, $B2_ITERS rounds"
	t0=$($T now)
	# shellcheck disable=SC2046
	trace-cmd record -q -b "$B2_BUFFER_KB" -O stacktrace $(b2_event_args) \
		-o /tmp/b2_stacktrace.dat sh -c "$(b2_cmd)"
	emit "b2_record_st_ns $(($($T now) - t0))"
	cp /tmp/b2_stackmap.dat /tmp/b2_stacktrace.dat "$SHARE/"
	rm -f /tmp/b2_stackmap.dat /tmp/b2_stacktrace.dat
}

# --- B5: per-event cost of a stack at a tracepoint, driven by a syscall loop
#
# Set up through tracefs directly, as trace-cmd record would (same events,
# filter and option), but with no reader: switching variants then takes
# milliseconds instead of seconds, so the variants can alternate loop by loop
# and load from outside the guest hits them alike.  Two points, each driven
# by a benchtool loop whose every call hits it once, with an event filter
# that keeps only the loop's hits: raw_syscalls:sys_enter (getppid; a
# faultable tracepoint from 6.13) and kmem:kmalloc (fgetxattr of
# B5_XATTR_SIZE bytes, a kmalloc of that size; not faultable).  A second
# phase loads the bench build of the module (stackmap-stages.ko, built with
# STACKMAP_BENCH_STAGES) and alternates its stages s0..s5 (bench_stage: the
# last step every hit takes) with event-only and -O stacktrace again.

B5_XATTR_SIZE=1234	# bytes: no other kmalloc of the idle guest asks for as many

# b5_point NAME: EV (the event's tracefs directory), TP ("system:event"),
# FILTER, DRIVE (the benchtool command and its arguments but N) and KP (the
# key prefix) of point NAME.
b5_point() {
	case $1 in
	sys_enter)
		EV=$TR/events/raw_syscalls/sys_enter TP=raw_syscalls:sys_enter
		FILTER="id == $GETPPID_NR" DRIVE="loop" KP=b5 ;;
	kmalloc)
		EV=$TR/events/kmem/kmalloc TP=kmem:kmalloc
		FILTER="bytes_req == $B5_XATTR_SIZE" DRIVE="xattr" KP=b5km ;;
	*) die "B5: no point $1" ;;
	esac
}

# Run the point's loop: $1 calls; prints ns per call.  Further arguments: a
# command the loop runs under (the peers' perf record ... --).
b5_drive() {
	n=$1
	shift
	case $DRIVE in
	loop) "$@" $T loop "$n" ;;
	xattr) "$@" $T xattr "$n" "$B5_XATTR_SIZE" ;;
	esac
}

# The variants: plain (no tracing), event (the event only, filtered),
# stacktrace (+ -O stacktrace), stackmap (+ the module attached, its events
# on), typed (the same through typed probes), captured (the module attached,
# its events off), attached (the module attached, nothing enabled), and in
# the stage phase sN (stackmap's with bench_stage=N).
b5_setup() {
	case $1 in
	plain | attached) ;;
	*) echo "$FILTER" >"$EV/filter"
		echo 1 >"$EV/enable" ;;
	esac
	case $1 in
	stacktrace) echo 1 >$TR/options/stacktrace ;;
	stackmap) echo "$TP" >$D/tracepoints
		echo 1 >$TR/events/stackmap/enable ;;
	typed) echo 1 >$TYPED
		echo "$TP" >$D/tracepoints
		echo 0 >$TYPED
		echo 1 >$TR/events/stackmap/enable ;;
	attached | captured) echo "$TP" >$D/tracepoints ;;
	s[0-9]) echo "${1#s}" >$STAGE
		echo "$TP" >$D/tracepoints
		echo 1 >$TR/events/stackmap/enable ;;
	esac
	echo 1 >$TR/tracing_on
}

b5_teardown() {
	echo 0 >$TR/tracing_on
	echo 0 >$TR/events/enable
	echo 0 >"$EV/filter"
	echo 0 >$TR/options/stacktrace
	case $1 in
	plain | event | stacktrace) ;;
	*) echo "!$TP" >$D/tracepoints ;;
	esac
	echo >$TR/trace
}

# One loop of $B5_LOOPS calls under variant $1 at the current point; ns
# per call appended to /tmp/$KP_$1.
b5_loop() {
	b5_setup "$1"
	b5_drive "$B5_LOOPS" >>"/tmp/${KP}_$1"
	b5_teardown "$1"
}

# Events the ring buffer took since the last clear, over every CPU.
b5_entries() {
	cat $TR/per_cpu/cpu*/stats | awk '$1 == "entries:" { t += $2 } END { print t + 0 }'
}

# Events of the point without its filter (every one of which the module,
# attached, records) in one run of the loop of $1 calls.
b5_unfiltered() {
	echo 1 >"$EV/enable"
	echo 1 >$TR/tracing_on
	b5_drive "$1" >/dev/null
	b5_entries
	b5_teardown event
}

# Check that every call of the point's loop hits its event exactly once
# under the filter; note how many hits a call makes without the filter.
b5_check_point() {
	b5_setup event
	b5_drive 1000 >/dev/null
	n=$(b5_entries)
	b5_teardown event
	[ "$n" -eq 1000 ] || die "B5: 1000 calls of '$DRIVE' gave $n $TP events under '$FILTER', not 1000"
	n=$(b5_unfiltered 500)
	m=$(b5_unfiltered 1000)
	emit "${KP}_unfiltered_per_call $(awk -v a="$n" -v b="$m" 'BEGIN { printf "%.2f", (b - a) / 500 }')"
}

# The module's typed probes (typed_probes: each tracepoint's own __probestub_NAME hooked with ftrace, what kCFI
# kernels use), from 6.5: the typed variant is stackmap's with them.
TYPED=/sys/module/stackmap/parameters/typed_probes
STAGE=/sys/module/stackmap/parameters/bench_stage

# $B5_ROUNDS rounds of variants $2 at each point of $1, alternated loop
# by loop; key prefix of each point: KP, then $3; $4 runs one loop of a
# variant (default b5_loop).
b5_rounds() {
	r=0
	while [ "$r" -lt "$B5_ROUNDS" ]; do
		step "B5: round $((r + 1)) of $2"
		for p in $1; do
			b5_point "$p"
			KP=$KP$3
			for v in $2; do
				"${4:-b5_loop}" "$v"
			done
		done
		r=$((r + 1))
	done
	for p in $1; do
		b5_point "$p"
		KP=$KP$3
		for v in $2; do
			emit "${KP}_${v}_ns $(median "/tmp/${KP}_$v")"
			emit "${KP}_${v}_all $(tr '\n' ',' <"/tmp/${KP}_$v")"
		done
	done
}

run_b5() {
	points="sys_enter kmalloc"
	load_module
	for p in $points; do
		b5_point "$p"
		b5_check_point
	done
	variants="plain event stacktrace stackmap captured attached"
	grep -q ' __probestub_sys_enter$' /proc/kallsyms && variants="$variants typed"
	step "B5: $B5_ROUNDS rounds of $variants at $points"
	b5_rounds "$points" "$variants" ""
	rmmod stackmap
	if [ -e "$MODDIR/stackmap-stages.ko" ]; then
		insmod "$MODDIR/stackmap-stages.ko"
		[ -e $STAGE ] || die "B5: stackmap-stages.ko has no bench_stage parameter"
		variants="event stacktrace s0 s1 s2 s3 s4 s5"
		step "B5: $B5_ROUNDS rounds of $variants at $points (bench build)"
		b5_rounds "$points" "$variants" s
		rmmod stackmap
	fi
	emit "b5_loops $B5_LOOPS"
	emit "b5_rounds $B5_ROUNDS"
	emit "b5_xattr_size $B5_XATTR_SIZE"
}

# --- B6: attach time vs idle threads, stackmap vs first function_graph

raise_limits() {
	echo 4194304 >/proc/sys/kernel/pid_max
	echo 1000000 >/proc/sys/kernel/threads-max
	echo 1000000 >/proc/sys/vm/max_map_count
}

# Start $1 idle threads in the background (not in a subshell: IDLE_PID must
# survive, and the helper must not hold a command substitution's pipe open).
start_idle() {
	rm -f /tmp/ready
	$T idle "$1" /tmp/ready >/dev/null &
	IDLE_PID=$!
	while [ ! -e /tmp/ready ]; do
		kill -0 "$IDLE_PID" 2>/dev/null || { echo "guest: idle threads failed" >&2; return 1; }
		sleep 0.2
	done
}

stop_idle() {
	kill -9 "$IDLE_PID"
	wait "$IDLE_PID" || true
}

check_function() {
	grep -qx "$B6_FUNC" $TR/available_filter_functions ||
		{ echo "guest: $B6_FUNC is not a traceable function" >&2; return 1; }
}

# Median ns of seven stackmap attaches of $B6_FUNC (each detached again);
# sets SM_NS.
time_stackmap_attach() {
	: >/tmp/b6_sm
	for _ in 1 2 3 4 5 6 7; do
		$T write $D/functions "$B6_FUNC" >>/tmp/b6_sm
		echo "!$B6_FUNC" >>$D/functions
	done
	SM_NS=$(median /tmp/b6_sm)
}

# ns of the first and of the second function_graph enable with one function
# filtered; sets FG_FIRST and FG_SECOND.
time_fgraph() {
	echo "$B6_FUNC" >$TR/set_ftrace_filter
	test "$(cat $TR/set_ftrace_filter)" = "$B6_FUNC"
	FG_FIRST=$($T write $TR/current_tracer function_graph)
	echo nop >$TR/current_tracer
	FG_SECOND=$($T write $TR/current_tracer function_graph)
	echo nop >$TR/current_tracer
	echo >$TR/set_ftrace_filter
}

run_b6() {
	raise_limits
	check_function
	load_module
	for n in $B6_THREADS; do
		step "B6: $n idle threads"
		start_idle "$n"
		emit "b6_threads_$n $(awk '/^Threads:/ { print $2 }' "/proc/$IDLE_PID/status")"
		time_stackmap_attach
		emit "b6_stackmap_ns_$n $SM_NS"
		time_fgraph
		emit "b6_fgraph_first_ns_$n $FG_FIRST"
		emit "b6_fgraph_second_ns_$n $FG_SECOND"
		stop_idle
	done
	emit "b6_list $B6_THREADS"
	rmmod stackmap
}

# --- B9: events with a resolvable stack that an overwritten buffer keeps
#
# A flight recorder of fixed size per CPU: trace-cmd start -b KB, the B1
# workload (long enough to overwrite the buffer many times), trace-cmd stop,
# trace-cmd extract with the stock trace-cmd (which stores no map: a cookie
# resolves only if its stack_define is still in the buffer), trace-cmd
# reset.  Three recorders per size, each after a fresh module load: -O
# stacktrace without the module (st), the module attached to sched_switch
# (sm), and the same with redefine_pct=0 (sm0, what the buffer kept before
# re-definition) and with each of B9_EXTRA_PCTS (smP).  The host counts the events whose stacks resolve.

# Sum of field $1 ("overrun", "entries") over the CPUs' ring-buffer stats.
b9_stat() {
	cat $TR/per_cpu/cpu*/stats | awk -v k="$1:" '$1 == k { t += $2 } END { print t + 0 }'
}

# One flight recorder: variant $1 (sm, sm0, st), buffer $2 KiB per CPU, the
# rest trace-cmd start's event options.
b9_record() {
	v=$1 kb=$2
	shift 2
	step "B9: $v, -b $kb"
	trace-cmd start -q -b "$kb" "$@"
	t0=$($T now)
	sh -c "$(b1_cmd "$B9_ITERS")"
	emit "b9_${v}_${kb}_work_ns $(($($T now) - t0))"
	trace-cmd stop
	emit "b9_${v}_${kb}_overrun $(b9_stat overrun)"
	emit "b9_${v}_${kb}_entries $(b9_stat entries)"
	emit "b9_${v}_${kb}_buffer_kb $(cat $TR/buffer_size_kb)"
	trace-cmd extract -o "/tmp/b9_${v}_${kb}.dat"
	trace-cmd reset
	echo 0 >$TR/options/stacktrace
	cp "/tmp/b9_${v}_${kb}.dat" "$SHARE/"
	rm -f "/tmp/b9_${v}_${kb}.dat"
}

run_b9() {
	for kb in $B9_BUFFERS_KB; do
		b9_record st "$kb" -e sched:sched_switch -O stacktrace
		load_module tracepoints=sched:sched_switch
		b9_record sm "$kb" -e stackmap -e sched:sched_switch
		cat $D/stats >"$SHARE/b9_sm_${kb}_stats.txt"
		rmmod stackmap
		for pct in 0 ${B9_EXTRA_PCTS:-}; do
			load_module tracepoints=sched:sched_switch redefine_pct="$pct"
			b9_record "sm$pct" "$kb" -e stackmap -e sched:sched_switch
			# The map the front end's extract would store in the file.
			cat $D/stack_map >"$SHARE/b9_sm${pct}_${kb}_stack_map.txt"
			rmmod stackmap
		done
	done
	emit "b9_buffers_kb $(echo "$B9_BUFFERS_KB" | tr ' ' ,)"
	emit "b9_pcts $(echo 0 ${B9_EXTRA_PCTS:-} | tr ' ' ,)"
	emit "b9_iters $B9_ITERS"
}

# --- B9s: B9 on a slab workload (issue 38 item 4)
#
# The same flight recorder as B9 (trace-cmd start -b KB, the workload without
# a reader, stop, extract, reset), with stacks on B9S_EVENTS (kmalloc, kfree,
# kmem_cache_alloc, kmem_cache_free) and a workload of file-system and network
# work (benchtool slab: files made, written, read, listed, renamed, removed
# on the guest's rootfs and on the 9p share; TCP, UDP and AF_UNIX traffic
# over loopback; the shell loop around it forks and execs).  Four recorders,
# each after a fresh module load, alternated round by round (the order
# rotates), B9S_ROUNDS rounds per buffer size:
#   st   -O stacktrace, stock trace-cmd, no module
#   sm   the module attached to B9S_EVENTS through its control file, stock
#        trace-cmd start/stop/extract (a cookie resolves only if its
#        stack_define is still in the buffer; redefine_pct at its default)
#   fe   the same through the record front end: its extract stores the
#        module's map in the file (README "Record": the flight recorder)
#   fe0  the front end with the module loaded with redefine_pct=0 (no
#        re-definition: the stored map resolves what the buffer lost)
#   smP, feP  sm or fe with the module loaded with redefine_pct=P (context
#        rows, BENCH_B9S_PCTS)

# The rootfs with 8 files a round, the 9p share with one (a 9p file costs
# more than ten times the allocations of a rootfs one).
B9S_WORK_DIRS="/tmp/b9s $SHARE/b9s_work:1"

# The workload's shell switches tracing off itself, as trace-cmd stop does:
# the window kept ends with the workload, not with the events of starting
# trace-cmd stop (through the front end, a shell too) after it.
b9s_cmd() {
	echo "i=0; while [ \$i -lt $B9S_ITERS ]; do $T slab $B9S_CALL $B9S_WORK_DIRS; i=\$((i + 1)); done; echo 0 >$TR/tracing_on"
}

# b9s_attach PREFIX: the module attached to every event of B9S_EVENTS ("") or
# detached from them ("!"), through its control file.
b9s_attach() {
	for e in $B9S_EVENTS; do
		echo "$1$e" >>$D/tracepoints
	done
}

# b9s_record VARIANT KB ROUND: one flight recorder, its trace left as
# $SHARE/b9s_VARIANT_KB_rROUND.dat.
b9s_record() {
	v=$1 kb=$2 r=$3
	name=b9s_${v}_${kb}_r$r
	tc=/usr/bin/trace-cmd
	case $v in
	st) args="-O stacktrace" ;;
	sm | fe) load_module
		args="-e stackmap" ;;
	sm[0-9]* | fe[0-9]*) load_module redefine_pct="${v#??}"
		args="-e stackmap" ;;
	*) die "B9s: no variant $v" ;;
	esac
	case $v in
	fe*) tc=/usr/local/bin/trace-cmd ;;
	esac
	[ "$v" = st ] || b9s_attach ""
	for e in $B9S_EVENTS; do
		args="$args -e $e"
	done
	step "B9s: $v, -b $kb, round $r"
	# shellcheck disable=SC2086 # one word per option
	$tc start -q -b "$kb" $args
	t0=$($T now)
	sh -c "$(b9s_cmd)"
	emit "${name}_work_ns $(($($T now) - t0))"
	$tc stop
	emit "${name}_overrun $(b9_stat overrun)"
	emit "${name}_entries $(b9_stat entries)"
	if [ "$v" != st ]; then
		# Detached before extract: the map the front end stores is final.
		b9s_attach "!"
		cat $D/stats >"$SHARE/${name}_stats.txt"
	fi
	$tc extract -o "/tmp/$name.dat"
	/usr/bin/trace-cmd reset
	echo 0 >$TR/options/stacktrace
	[ "$v" = st ] || rmmod stackmap
	cp "/tmp/$name.dat" "$SHARE/"
	rm -f "/tmp/$name.dat"
}

run_b9s() {
	[ -x /extra/trace-cmd ] && [ -x /extra/stackmap-snapshot ] || die "B9s: the front end is not in /extra"
	mkdir -p /usr/local/bin /tmp/b9s "$SHARE/b9s_work"
	cp /extra/trace-cmd /extra/stackmap-snapshot /usr/local/bin/
	# stackmap-snapshot's libtracecmd.so.1 (trace-cmd itself links none).
	export LD_LIBRARY_PATH=/extra
	# Once before any recording: lo comes up, the caches warm.
	$T slab 1 $B9S_WORK_DIRS
	b9s_t0=$($T now)
	for kb in $B9S_BUFFERS_KB; do
		r=1
		while [ "$r" -le "$B9S_ROUNDS" ]; do
			# The order rotates by one each round.
			set -- $B9S_VARIANTS
			k=1
			while [ "$k" -lt "$r" ]; do
				first=$1
				shift
				set -- "$@" "$first"
				k=$((k + 1))
			done
			for v in "$@"; do
				b9s_record "$v" "$kb" "$r"
			done
			r=$((r + 1))
		done
	done
	emit "b9s_buffers_kb $(echo "$B9S_BUFFERS_KB" | tr ' ' ,)"
	emit "b9s_variants $(echo "$B9S_VARIANTS" | tr ' ' ,)"
	emit "b9s_events $(echo "$B9S_EVENTS" | tr ' ' ,)"
	emit "b9s_iters $B9S_ITERS"
	emit "b9s_call $B9S_CALL"
	emit "b9s_rounds $B9S_ROUNDS"
	emit "b9s_guest_ns $(($($T now) - b9s_t0))"
}

# --- Peers: perf record -g and bpftrace beside -O stacktrace and stackmap (issue 38 item 3)
#
# This boot's userland is a Debian root's (tests/roots.sh peers; run.sh boots it with run-vm.sh --userland ROOT
# --program /usr/bin/perf --program /usr/bin/bpftrace): the kernel's own linux-perf and its release's bpftrace.
# 1. Cost: B5's points and loops, variants alternated loop by loop as B5's: plain, event, stacktrace and stackmap
#    (tracefs, no reader, as B5), and
#      perf      perf record -e TP --filter FILTER with a PEERS_PERF_MB buffer (perf is not woken in the loop)
#      perfg     the same with -g
#      bpf       bpftrace 'tracepoint:TP /PRED/ { @ = count(); }'
#      bpfagg    the same with @[kstack] = count()
#      bpfprint  the same with printf("%s\n", kstack): each stack through bpftrace's output buffer and reader
#    The last round's perf.data files and bpfprint output stay in $SHARE (bytes per event, on the host).
# 2. A fixed-size buffer, PEERS_BUFFERS_KB per CPU, on B9's workload (sched_switch with stacks): -O stacktrace
#    and stackmap as B9 records them (b9_record, variants pst and psm); perf record --overwrite -m KB -g -a (a
#    flight recorder, read when it ends); bpftrace printing each stack through a perf buffer of as many pages (a
#    live reader: what it printed and what it lost), with the sched_switch event beside it counting the switches.
# 3. bpftrace's stack ids: B9s's slab workload under @[kstack] = count() on B9S_EVENTS, with the module attached
#    to the same events in the same window: its map holds the distinct stacks there were.

PEERS_PERF_MB=8

# bpftrace's tracepoint arguments: args.NAME from 0.20 on, args->NAME before.
bpf_args() {
	n=$(bpftrace --version | sed -n 's/^bpftrace v0\.\([0-9]*\)\..*/\1/p')
	if [ "${n:-99}" -ge 20 ]; then echo "args."; else echo "args->"; fi
}

# The bpftrace program of variant $1 (bpf, bpfagg, bpfprint) at the current point.
peers_bpf_program() {
	case $1 in
	bpf) action='@ = count();' ;;
	bpfagg) action='@[kstack] = count();' ;;
	bpfprint) action='printf("%s\n", kstack);' ;;
	*) die "peers: no bpftrace variant $1" ;;
	esac
	echo "tracepoint:$TP /$BPF_ARGS$FILTER/ { $action }"
}

# bpf_start PROGRAM OUT: bpftrace running PROGRAM in the background (BPF_PID), its output in OUT (emptied
# first: a start must not see the last one's marker); returns when its BEGIN probe has run, which bpftrace fires
# once every probe is attached.
bpf_start() {
	: >"$2"
	bpftrace -B line -e "BEGIN { printf(\"peers-ready\n\"); } $1" >"$2" 2>&1 &
	BPF_PID=$!
	i=0
	until grep -q '^peers-ready' "$2"; do
		i=$((i + 1))
		if [ "$i" -gt 1200 ] || ! bpf_running; then
			cat "$2"
			die "peers: bpftrace did not start in 600 s: $1"
		fi
		sleep 0.5
	done
}

# bpftrace is running (not gone, not a zombie yet to be waited for).
bpf_running() {
	[ -e "/proc/$BPF_PID" ] && ! grep -q '^State:.*Z' "/proc/$BPF_PID/status" 2>/dev/null
}

# Wait until bpftrace's reader has printed what its buffer holds (OUT, $1, unchanged for a second; two minutes
# at most): on SIGINT it stops reading, and the events still in its buffer would never be printed nor counted lost.
bpf_settle() {
	n=-1 i=0
	while [ "$(wc -c <"$1")" != "$n" ] && [ "$i" -lt 120 ]; do
		n=$(wc -c <"$1")
		sleep 1
		i=$((i + 1))
	done
}

# Stop bpftrace; it prints its maps as it exits (given 600 s to, then killed).
bpf_stop() {
	kill -INT "$BPF_PID"
	i=0
	while bpf_running; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || { echo "guest: bpftrace did not exit in 600 s; killed"; kill -9 "$BPF_PID"; break; }
		sleep 0.5
	done
	wait "$BPF_PID" || true
}

# One loop of variant $1 at the current point (b5_rounds' loop for the peers).
peers_loop() {
	f=/tmp/${KP}_$1
	step "peers: $KP $1"
	case $1 in
	perf) b5_drive "$B5_LOOPS" perf record -q -m "${PEERS_PERF_MB}M" -e "$TP" --filter "$FILTER" \
		-o "/tmp/${KP}_$1.data" -- >>"$f" ;;
	perfg) b5_drive "$B5_LOOPS" perf record -q -g -m "${PEERS_PERF_MB}M" -e "$TP" --filter "$FILTER" \
		-o "/tmp/${KP}_$1.data" -- >>"$f" ;;
	bpf*) bpf_start "$(peers_bpf_program "$1")" "/tmp/${KP}_$1.out"
		b5_drive "$B5_LOOPS" >>"$f"
		bpf_settle "/tmp/${KP}_$1.out"
		bpf_stop ;;
	*) b5_loop "$1" ;;
	esac
}

peers_cost() {
	points="sys_enter kmalloc"
	load_module
	for p in $points; do
		b5_point "$p"
		KP=${KP}p
		b5_check_point
	done
	variants="plain event stacktrace stackmap perf perfg"
	[ -z "$BPF_OK" ] || variants="$variants bpf bpfagg bpfprint"
	B5_ROUNDS=$PEERS_ROUNDS
	b5_rounds "$points" "$variants" p peers_loop
	rmmod stackmap
	for p in $points; do
		b5_point "$p"
		KP=${KP}p
		cp "/tmp/${KP}_perf.data" "/tmp/${KP}_perfg.data" "$SHARE/"
		[ -z "$BPF_OK" ] || cp "/tmp/${KP}_bpfprint.out" "/tmp/${KP}_bpfagg.out" "$SHARE/"
	done
	emit "b5p_loops $B5_LOOPS"
	emit "b5p_rounds $PEERS_ROUNDS"
	emit "b5p_xattr_size $B5_XATTR_SIZE"
	emit "b5p_perf_mb $PEERS_PERF_MB"
}

# peers_flight KB: the fixed-size buffers of KB KiB per CPU on B9's workload.
peers_flight() {
	kb=$1
	b9_record pst "$kb" -e sched:sched_switch -O stacktrace
	load_module tracepoints=sched:sched_switch
	b9_record psm "$kb" -e stackmap -e sched:sched_switch
	rmmod stackmap
	step "peers: perf record --overwrite -m ${kb}K -g -a, $B9_ITERS rounds of B1's workload"
	t0=$($T now)
	perf record -q --overwrite -m "${kb}K" -g -a -e sched:sched_switch -o "/tmp/peers_perf_$kb.data" \
		-- sh -c "$(b1_cmd "$B9_ITERS")"
	emit "peers_perf_${kb}_work_ns $(($($T now) - t0))"
	cp "/tmp/peers_perf_$kb.data" "$SHARE/"
	rm -f "/tmp/peers_perf_$kb.data"
	[ -n "$BPF_OK" ] || return 0
	step "peers: bpftrace printing each sched_switch stack, a perf buffer of $((kb / 4)) pages"
	# Neither counts bpftrace's own switches: its reader, woken by each event, would otherwise feed
	# itself one switch per stack it prints, for ever.
	echo 4096 >$TR/buffer_size_kb
	echo 'prev_comm != "bpftrace"' >$TR/events/sched/sched_switch/filter
	echo 1 >$TR/events/sched/sched_switch/enable
	echo 1 >$TR/tracing_on
	export BPFTRACE_PERF_RB_PAGES=$((kb / 4))
	bpf_start 'tracepoint:sched:sched_switch /comm != "bpftrace"/ { printf("%s\n", kstack); }' "/tmp/peers_bpf_$kb.out"
	unset BPFTRACE_PERF_RB_PAGES
	t0=$($T now)
	sh -c "$(b1_cmd "$B9_ITERS")"
	emit "peers_bpf_${kb}_work_ns $(($($T now) - t0))"
	bpf_settle "/tmp/peers_bpf_$kb.out"
	bpf_stop
	echo 0 >$TR/tracing_on
	emit "peers_bpf_${kb}_switches $(($(b9_stat entries) + $(b9_stat overrun)))"
	echo 0 >$TR/events/enable
	echo 0 >$TR/events/sched/sched_switch/filter
	echo >$TR/trace
	cp "/tmp/peers_bpf_$kb.out" "$SHARE/"
	rm -f "/tmp/peers_bpf_$kb.out"
}

# bpftrace's @[kstack] = count() and the module's map on the same events in the same window (B9s's workload).
peers_stackids() {
	mkdir -p /tmp/b9s "$SHARE/b9s_work"
	# shellcheck disable=SC2086 # one word per directory
	$T slab 1 $B9S_WORK_DIRS
	probes=""
	for e in $B9S_EVENTS; do
		probes="$probes${probes:+,}tracepoint:$e"
	done
	step "peers: bpftrace @[kstack] = count() and the module on $B9S_EVENTS, B9s's workload"
	# Loaded before bpftrace starts, attached after: both see the same window but for the attaching and
	# detaching writes (insmod's allocations would add stacks only bpftrace sees).
	load_module
	bpf_start "$probes { @[kstack] = count(); @events = count(); }" /tmp/peers_stackids.out
	b9s_attach ""
	sh -c "$(b9s_cmd)"
	b9s_attach "!"
	bpf_stop
	cat $D/stats >"$SHARE/peers_stackids_stats.txt"
	cat $D/stack_map >"$SHARE/peers_stackids_map.txt"
	rmmod stackmap
	echo 1 >$TR/tracing_on
	cp /tmp/peers_stackids.out "$SHARE/"
}

run_peers() {
	t0_peers=$($T now)
	emit "peers_perf_version $(perf version | tr ' ' _)"
	emit "peers_bpftrace_version $(bpftrace --version | tr ' ' _)"
	# A bpftrace that cannot run here leaves its words in $SHARE/peers_bpftrace_error.txt; perf goes on.
	BPF_OK=1
	if ! bpftrace -e 'BEGIN { exit(); }' >"$SHARE/peers_bpftrace_error.txt" 2>&1; then
		BPF_OK=""
		echo "guest: bpftrace cannot run here:"
		cat "$SHARE/peers_bpftrace_error.txt"
	else
		rm -f "$SHARE/peers_bpftrace_error.txt"
		BPF_ARGS=$(bpf_args)
	fi
	peers_cost
	for kb in $PEERS_BUFFERS_KB; do
		peers_flight "$kb"
	done
	emit "peers_buffers_kb $(echo "$PEERS_BUFFERS_KB" | tr ' ' ,)"
	emit "peers_b9_iters $B9_ITERS"
	[ -z "$BPF_OK" ] || peers_stackids
	emit "peers_stackid_events $(echo "$B9S_EVENTS" | tr ' ' ,)"
	emit "peers_guest_ns $(($($T now) - t0_peers))"
}

main() {
	: >"$OUT"
	emit "guest_kernel $(uname -r)"
	emit "guest_nproc $(nproc)"
	# The guest's mitigations (what its -cpu offers decides them): a
	# figure of B5 is only comparable with another under the same ones.
	for f in /sys/devices/system/cpu/vulnerabilities/*; do
		[ -r "$f" ] && emit "guest_vuln_$(basename "$f") $(cat "$f")"
	done
	emit "guest_cmdline $(cat /proc/cmdline)"
	for part in $PARTS; do
		"run_$part"
	done
	step "done"
}

main
