#!/bin/bash
# Run every benchmark, each next to its baseline in the same invocation, and
# print one markdown table of ratios (see tests/bench/README.md).
#
#   tests/bench/run.sh            full sizes (~15 min when TCG ran a thread a vCPU;
#                                 B2's guest alone now takes 20); writes RESULTS.md
#   tests/bench/run.sh --quick    tiny sizes (~1 min), for CI; prints only
#   --parts "b1 b9"               only these benchmarks (any of b1 b2 b3 b4
#                                 b5 b6 b8 b9 b9s b10 peers; b3 and b8 run together, B7
#                                 comes from b1 and b2; b10 needs the vm-e2e@6.1
#                                 trace and fetches Debian's -dbg package once,
#                                 see firstline.sh; peers, perf and bpftrace beside
#                                 -O stacktrace and stackmap, boots a Debian root's
#                                 userland, tests/roots.sh peers); prints only
#   --icount                      the guests under qemu's -icount shift=0,sleep=off:
#                                 their clock counts instructions (1 ns = 1
#                                 instruction), so B5's figures do not move with
#                                 the host's load; B5's rows then say "insns"
#   BENCH_B6_FUNC=name            another traceable function for B6
#   STACKMAP_KERNEL=6.12          the guest parts on another kernel of
#                                 tests/kernels.sh; a full-size run writes
#                                 RESULTS-6.12.md.  6.12-arm64 and
#                                 newest-arm64 boot an arm64 guest, with
#                                 benchtool and the front end cross-built
#                                 (tests/arm64/build.sh)
#   BENCH_B9_PCTS="25 50"         B9 also with these redefine_pct values
#   BENCH_B9_BUFFERS_KB=64        B9 with only these buffer sizes (KiB per CPU)
#   BENCH_B9S_BUFFERS_KB=256      B9s (B9 on the slab workload) with only these
#   BENCH_B9S_ROUNDS=1            B9s: rounds of its four recorders (default 3)
#   BENCH_B9S_PCTS="50 100"       B9s also with stock recorders of these
#                                 redefine_pct values (context rows)
#   BENCH_B9S_EVENTS="kmem:kmalloc kmem:kfree kmem:kmem_cache_alloc"
#                                 B9s: the events with stacks (default these
#                                 and kmem:kmem_cache_free)
#   BENCH_BOOT1_SMP=2             vCPUs of the guest of B1, B5, B9, B9s (default
#                                 1; B9s on two shows definitions per CPU)
#   BENCH_PEERS_SUITE=trixie      peers: the Debian release whose perf and
#                                 bpftrace the guest runs (default bookworm,
#                                 trixie for STACKMAP_KERNEL=newest)
#
# Needs `make` done (kmod/stackmap.ko, decoder/fgdecode) and root for qemu's
# 9p share, like tests/vm.  Benchmarks are not tests: nothing here judges a
# timing.  Exit 1 when a benchmark fails to run; its rows then say "not run".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
QUICK=0
ICOUNT=0
# What runs without --parts (the quick mode of make check too). peers is only run by name: it needs a Debian
# root with perf and bpftrace (tests/roots.sh peers, a download) and its guest takes many minutes.
DEFAULT_PARTS="b1 b2 b3 b4 b5 b6 b8 b9 b9s b10"
ALL_PARTS="$DEFAULT_PARTS peers"
PARTS=$DEFAULT_PARTS
WORK=""
FAILED=()

usage() {
	echo "usage: $0 [--quick] [--icount] [--parts \"PART ...\"] (parts: $ALL_PARTS)" >&2
	exit 2
}

# Sizes of both modes, written into the guest's bench.conf as well.
set_sizes() {
	local p
	if ((QUICK)); then
		B1_ITERS=5 B5_LOOPS=2000 B5_ROUNDS=2 B6_THREADS="100 500" B6_MEM=1G DECODE_RUNS=1
		B2_ITERS=2 B2_BUFFER_KB=4000
		B9_ITERS=1 B9_BUFFERS_KB=16
		# Two recorders only, each ~8 s of guest time (trace-cmd start,
		# stop, extract and reset take most of it): the front end's, and
		# -O stacktrace's to compare with.
		B9S_ITERS=1 B9S_CALL=1 B9S_BUFFERS_KB=16 B9S_ROUNDS=1 B9S_VARIANTS="st fe"
		PEERS_ROUNDS=1 PEERS_BUFFERS_KB=16 PEERS_TIMEOUT=1200
		# One vCPU and a short timeout: B5 patches kernel text a dozen
		# times, and two TCG vCPUs can livelock on the int3 of a site being
		# patched (see run-vm.sh, run_qemu); CI only needs every part to run.
		GUEST_SMP=1 GUEST_TIMEOUT=300
	else
		B1_ITERS=60 B5_LOOPS=10000 B5_ROUNDS=25 B6_THREADS="1000 5000 10000 20000" B6_MEM=4G DECODE_RUNS=5
		# ~4k stack-bearing events a round: ≥ 1 M events per trace
		B2_ITERS=280 B2_BUFFER_KB=40000
		# B1's workload without a reader, ~800 sched_switch a round: the
		# 256 KiB buffer (~3000 with cookies) is overwritten about 10 times
		B9_ITERS=40 B9_BUFFERS_KB=${BENCH_B9_BUFFERS_KB:-64 256}
		# Shell rounds of benchtool slab B9S_CALL rounds each: the
		# 1024 KiB buffer (~15 k stackmap events) overwritten many times
		B9S_ITERS=8 B9S_CALL=3 B9S_BUFFERS_KB=${BENCH_B9S_BUFFERS_KB:-256 1024}
		B9S_ROUNDS=${BENCH_B9S_ROUNDS:-3} B9S_VARIANTS="st sm fe fe0"
		for p in ${BENCH_B9S_PCTS:-}; do
			B9S_VARIANTS+=" sm$p"
		done
		# Under icount three rounds of a variant agree as well as five;
		# every bpftrace loop compiles its program again.
		PEERS_ROUNDS=${BENCH_PEERS_ROUNDS:-3} PEERS_BUFFERS_KB=${BENCH_PEERS_BUFFERS_KB:-256}
		# Every bpftrace start compiles its program under TCG (seconds to minutes).
		PEERS_TIMEOUT=3600
		GUEST_SMP=2 GUEST_TIMEOUT=1500
		# Under icount a B5 loop gives the same count to 0.1 % in every
		# round: five rounds are plenty.
		((!ICOUNT)) || B5_ROUNDS=5
	fi
	B6_FUNC=${BENCH_B6_FUNC:-vfs_fsync_range}	# the function B6 attaches to
	B9_EXTRA_PCTS=${BENCH_B9_PCTS:-}	# more redefine_pct values for B9
	B9S_EVENTS=${BENCH_B9S_EVENTS:-kmem:kmalloc kmem:kfree kmem:kmem_cache_alloc kmem:kmem_cache_free}
}

log() {
	echo "bench: $*" >&2
}

# Run one benchmark step; on failure remember it and go on with the others.
# (set -e does not apply inside a function called as a condition: every step
# below returns 1 itself on the first failure.)
attempt() {
	local name=$1
	shift
	log "$name"
	if ! "$@"; then
		log "$name FAILED"
		FAILED+=("$name")
	fi
}

build() {
	make -s -C "$HERE" >&2 || return 1
	local f
	for f in kmod/stackmap.ko decoder/fgdecode plugin/plugin_stackmap.so; do
		[[ -r $TOP/$f ]] || { log "$f missing: run make first"; return 1; }
	done
	# STACKMAP_KERNEL=NAME (tests/kernels.sh): the guest parts boot that
	# kernel with its module (KO, VM_ARGS from tests/vm/kernel.sh).
	KO=$TOP/kmod/stackmap.ko VM_ARGS=() GUEST_ARCH=x86_64
	if [[ -n ${STACKMAP_KERNEL:-} ]]; then
		# shellcheck source=tests/vm/kernel.sh
		. "$TOP/tests/vm/kernel.sh"
		vm_kernel_setup bench "$WORK/kernel" >&2
		GUEST_ARCH=$(vm_arg --arch)
		GUEST_ARCH=${GUEST_ARCH:-x86_64}
	fi
	guest_binaries || return 1
	# Private copies: other builds in this tree must not change them mid-run.
	cp "$KO" "$WORK/stackmap.ko" && cp "$TOP/decoder/fgdecode" "$WORK/" && cp "$BENCHTOOL" "$WORK/benchtool" ||
		return 1
	! want b9s || build_front_end || return 1
	! want b5 || build_stages || return 1
	! want peers || peers_root || return 1
	mkdir -p "$WORK/plugin" && cp "$TOP/plugin/plugin_stackmap.so" "$WORK/plugin/" || return 1
}

# The binaries the guest runs, for its architecture: BENCHTOOL, and the front
# end's SNAPSHOT (stackmap-snapshot) with GUEST_LIBDIR, where the
# libtracecmd.so.1 it links is.  The host's build for an x86-64 guest;
# tests/arm64/build.sh's for an arm64 one, with the libraries of the arm64
# sysroot it links against.
guest_binaries() {
	local built
	case $GUEST_ARCH in
	x86_64)
		BENCHTOOL=$HERE/benchtool SNAPSHOT=$TOP/record/stackmap-snapshot GUEST_LIBDIR=/usr/lib/x86_64-linux-gnu ;;
	arm64)
		built=$(nice -n 19 "$TOP/tests/arm64/build.sh" tests/bench record 2>"$WORK/arm64-build.log") ||
			{ cat "$WORK/arm64-build.log" >&2; log "no arm64 build of benchtool and stackmap-snapshot"; return 1; }
		{ read -r BENCHTOOL && read -r SNAPSHOT; } <<<"$built"
		GUEST_LIBDIR=$("$TOP/tests/kernels.sh" arm64-sysroot)/usr/lib/aarch64-linux-gnu ;;
	*) log "no benchmark binaries for a $GUEST_ARCH guest"; return 1 ;;
	esac
}

# B5's stage rows: the module's bench build (KCFLAGS=-DSTACKMAP_BENCH_STAGES,
# its parameter bench_stage) for the same kernel, beside the real one, as
# $WORK/stackmap-stages.ko.  Neither may be the other.
build_stages() {
	local name=${STACKMAP_KERNEL:-6.1} ko
	ko=$(KMOD_VARIANT=stages nice -n 19 "$TOP/tests/kernels.sh" module "$name" KCFLAGS=-DSTACKMAP_BENCH_STAGES \
		2>"$WORK/stages-build.log") || { cat "$WORK/stages-build.log" >&2; log "no bench build of the module"; return 1; }
	[[ $(modinfo -F stackmap_test "$ko") == bench_stages ]] ||
		{ log "$ko lacks STACKMAP_BENCH_STAGES"; return 1; }
	[[ -z $(modinfo -F stackmap_test "$KO") ]] || { log "$KO is a test build"; return 1; }
	[[ $(modinfo -F vermagic "$ko") == "$(modinfo -F vermagic "$KO")" ]] ||
		{ log "$ko and $KO are for different kernels"; return 1; }
	cp "$ko" "$WORK/stackmap-stages.ko"
}

# B9s records through the front end too: record/trace-cmd and
# stackmap-snapshot, with the libtracecmd.so.1 the latter links (the guest's
# LD_LIBRARY_PATH is /extra), as tests/vm/test_frontend.sh gives them.
build_front_end() {
	local f
	for f in "$TOP/record/trace-cmd" "$SNAPSHOT"; do
		[[ -x $f ]] || { log "$f missing: run make first"; return 1; }
	done
	mkdir -p "$WORK/fe" &&
		cp "$TOP/record/trace-cmd" "$SNAPSHOT" "$WORK/fe/" &&
		cp "$(readlink -f "$GUEST_LIBDIR/libtracecmd.so.1")" "$WORK/fe/libtracecmd.so.1"
}

# The peers part's Debian root (tests/roots.sh peers): the kernel's linux-perf and its release's bpftrace.
# bookworm's perf is 6.1's; the newest kernel's is trixie-backports'.
peers_root() {
	local suite=${BENCH_PEERS_SUITE:-bookworm}
	[[ -n ${BENCH_PEERS_SUITE:-} || ${STACKMAP_KERNEL:-} != newest ]] || suite=trixie
	PEERS_ROOT=$(nice -n 19 "$TOP/tests/roots.sh" peers "$suite") || { log "no $suite root with perf and bpftrace"; return 1; }
}

machine_info() {
	{
		echo "host_nproc $(nproc)"
		echo "host_cpu $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo | tr ' ' '_')"
		echo "host_kernel $(uname -r)"
		echo "mode $( ((QUICK)) && echo quick || echo full)"
		echo "b5_clock $( ((ICOUNT)) && echo icount || echo wall)"
		echo "date $(date -u +%Y-%m-%dT%H:%MZ)"
	} >>"$WORK/results.txt"
}

run_b4() {
	local args=()
	((QUICK)) && args=(--quick)
	"$HERE/bench_map" ${args[@]+"${args[@]}"} >"$WORK/b4.txt" || return 1
	sed 's/^/b4_/' "$WORK/b4.txt" >>"$WORK/results.txt"
}

write_conf() {
	cat >"$WORK/bench.conf" <<EOF
PARTS="$1"
B1_ITERS=$B1_ITERS
B5_LOOPS=$B5_LOOPS
B5_ROUNDS=$B5_ROUNDS
B6_THREADS="$B6_THREADS"
B6_FUNC=$B6_FUNC
B2_ITERS=$B2_ITERS
B2_BUFFER_KB=$B2_BUFFER_KB
B9_ITERS=$B9_ITERS
B9_BUFFERS_KB="$B9_BUFFERS_KB"
B9_EXTRA_PCTS="$B9_EXTRA_PCTS"
B9S_ITERS=$B9S_ITERS
B9S_CALL=$B9S_CALL
B9S_BUFFERS_KB="$B9S_BUFFERS_KB"
B9S_ROUNDS=$B9S_ROUNDS
B9S_EVENTS="$B9S_EVENTS"
B9S_VARIANTS="$B9S_VARIANTS"
PEERS_ROUNDS=$PEERS_ROUNDS
PEERS_BUFFERS_KB="$PEERS_BUFFERS_KB"
EOF
}

# One guest boot running the given parts of bench_guest.sh.
run_guest() {
	local parts=$1 mem=$2 smp=$3 timeout=${4:-$GUEST_TIMEOUT} share=$WORK/share-${1// /-} args=() extra=()
	write_conf "$parts" || return 1
	((!ICOUNT)) || args+=(--icount)
	[[ " $parts " != *" b5 "* ]] || args+=(--module "$WORK/stackmap-stages.ko")
	[[ " $parts " != *" b9s "* ]] || extra+=("$WORK/fe/trace-cmd" "$WORK/fe/stackmap-snapshot" "$WORK/fe/libtracecmd.so.1")
	[[ " $parts " != *" peers "* ]] || args+=(--userland "$PEERS_ROOT" --program /usr/bin/perf --program /usr/bin/bpftrace)
	"$TOP/tests/vm/run-vm.sh" --module "$WORK/stackmap.ko" ${args[@]+"${args[@]}"} ${VM_ARGS[@]+"${VM_ARGS[@]}"} \
		--guest-script "$TOP/tests/vm/guest/bench_guest.sh" --share "$share" --mem "$mem" --smp "$smp" \
		--timeout "$timeout" --extra "$WORK/benchtool" "$WORK/bench.conf" ${extra[@]+"${extra[@]}"} >&2 || return 1
	grep -v '^guest_' "$share/results.txt" >>"$WORK/results.txt" || return 1
	grep '^guest_' "$share/results.txt" >>"$WORK/guest.txt"
}

# "key value" lines for the B1 trace $1 under prefix $2.
trace_facts() {
	local dat=$1 prefix=$2
	local fly
	"$HERE/tracesize" "$dat" | awk -v p="$prefix" '{ sub(/^[a-z_]+:/, "", $1);
		print p "_" $1 "_count", $2; print p "_" $1 "_rb", $4 }' || return 1
	fly=$(trace-cmd dump -i "$dat" --summary 2>&1 | sed -n 's/.* \([0-9]*\) bytes flyrecord data.*/\1/p')
	[[ -n $fly ]] || { log "no flyrecord size in $dat"; return 1; }
	echo "${prefix}_flyrecord $fly"
	echo "${prefix}_file $(stat -c %s "$dat")"
}

run_b1_host() {
	local share=$WORK/share-${BOOT1// /-}
	trace_facts "$share/b1_stackmap.dat" b1_sm >>"$WORK/results.txt" &&
		trace_facts "$share/b1_stacktrace.dat" b1_st >>"$WORK/results.txt" &&
		awk '{ print "b7_" $1, $2 }' "$share/b1_stats.txt" >>"$WORK/results.txt"
}

# Sizes of the B2 traces, and the events their readers were told were lost
# (fgdecode's "EVENTS DROPPED" lines count both traces alike).
run_b2_host() {
	local share=$WORK/share-b2
	trace_facts "$share/b2_stackmap.dat" b2_sm >>"$WORK/results.txt" &&
		trace_facts "$share/b2_stacktrace.dat" b2_st >>"$WORK/results.txt" &&
		awk '{ print "b2_map_" $1, $2 }' "$share/b2_stats.txt" >>"$WORK/results.txt" || return 1
	echo "b2_iters $B2_ITERS" >>"$WORK/results.txt"
	echo "b2_sm_lost $(dropped "$WORK/fgdecode" "$share/b2_stackmap.dat")" >>"$WORK/results.txt"
	echo "b2_st_lost $(dropped env -u TRACEEVENT_PLUGIN_DIR trace-cmd report "$share/b2_stacktrace.dat")" \
		>>"$WORK/results.txt"
}

# B9: for each flight recorder, its ring-buffer bytes per event type and the
# sched_switch events whose stack resolves in fgdecode's text output: an
# event line followed by a "    => SYMBOL" line, not a <...> marker (an
# unknown cookie, an orphan) and not a bare address.  kernel_stack events of
# the -O stacktrace trace are decoded the same way.
run_b9_host() {
	local share=$WORK/share-${BOOT1// /-} kb v dat vs="st sm sm0" pct
	for pct in $B9_EXTRA_PCTS; do
		vs+=" sm$pct"
	done
	for kb in $B9_BUFFERS_KB; do
		for v in $vs; do
			dat=$share/b9_${v}_${kb}.dat
			trace_facts "$dat" "b9_${v}_${kb}" >>"$WORK/results.txt" || return 1
			resolvable "$WORK/fgdecode" "$dat" "b9_${v}_${kb}" >>"$WORK/results.txt" || return 1
		done
		# redefine_pct=0 with the map stored beside the trace (fgdecode
		# --stack-map; the front end's extract stores the same map in the file).
		resolvable "$WORK/fgdecode" "$share/b9_sm0_${kb}.dat" "b9_sm0map_${kb}" \
			--stack-map "$share/b9_sm0_${kb}_stack_map.txt" >>"$WORK/results.txt" || return 1
		awk -v p="b9_map_${kb}_" '{ print p $1, $2 }' "$share/b9_sm_${kb}_stats.txt" >>"$WORK/results.txt"
	done
}

# Peers: the perf.data files through the root's own perf (report -D: every record with its size), bpftrace's
# outputs, the module's stats beside bpftrace's stack ids, and B9's two recorders of this boot (pst, psm).
run_peers_host() {
	local share=$WORK/share-peers kb f
	{
		for f in b5p_perf b5p_perfg b5kmp_perf b5kmp_perfg; do
			perf_facts "$share" "$f.data" "$f" || return 1
		done
		for kb in $PEERS_BUFFERS_KB; do
			perf_facts "$share" "peers_perf_$kb.data" "peers_perf_$kb" || return 1
			for f in pst psm; do
				trace_facts "$share/b9_${f}_$kb.dat" "b9_${f}_$kb" &&
					resolvable "$WORK/fgdecode" "$share/b9_${f}_$kb.dat" "b9_${f}_$kb" || return 1
			done
		done
		echo "peers_suite $(basename "$PEERS_ROOT")"
	} >>"$WORK/results.txt"
	if [[ -s $share/peers_bpftrace_error.txt ]]; then
		log "bpftrace could not run in the guest: $(head -c 600 "$share/peers_bpftrace_error.txt")"
		return 0
	fi
	{
		for f in b5p b5kmp; do
			bpf_print_facts "$share/${f}_bpfprint.out" "${f}_bpfprint" &&
				bpf_map_facts "$share/${f}_bpfagg.out" "${f}_bpfagg" || return 1
		done
		for kb in $PEERS_BUFFERS_KB; do
			bpf_print_facts "$share/peers_bpf_$kb.out" "peers_bpf_$kb" || return 1
		done
		bpf_map_facts "$share/peers_stackids.out" peers_stackids &&
			stackid_match "$share/peers_stackids_map.txt" "$share/peers_stackids.out" peers_match || return 1
		awk '{ print "peers_stackids_map_" $1, $2 }' "$share/peers_stackids_stats.txt"
	} >>"$WORK/results.txt"
}

# perf_facts DIR FILE PREFIX: DIR/FILE's samples, their mean size in bytes (the record: header, the event's raw
# data, the callchain) and mean callchain length; the file's size.
perf_facts() {
	"$TOP/tests/roots.sh" run "$PEERS_ROOT" --bind "$1" -- perf report -D -i "$1/$2" 2>/dev/null | gawk -v p="$3" '
		/PERF_RECORD_SAMPLE/ && match($0, /\[0x[0-9a-f]+\]/) {
			n++; bytes += strtonum(substr($0, RSTART + 1, RLENGTH - 2))
		}
		/\.\.\. (FP )?chain: nr:[0-9]+/ { split($0, a, "nr:"); chains++; frames += a[2] }
		END {
			if (!n) exit 1
			print p "_samples", n
			printf "%s_sample_bytes %.1f\n", p, bytes / n
			printf "%s_chain %.1f\n", p, chains ? frames / chains : 0
		}' || { log "perf report -D found no sample in $1/$2"; return 1; }
	echo "${3}_file $(stat -c %s "$1/$2")"
}

# bpf_print_facts OUT PREFIX: the stacks bpftrace printed one by one into OUT (a blank line, the frames
# indented), the events its reader reported lost ("Lost N events"), the output's bytes.
bpf_print_facts() {
	gawk -v p="$2" '
		/^Lost [0-9]+ events/ { lost += $2; next }
		/^ +[^ ]/ { if (!in_stack) events++; in_stack = 1; frames++; next }
		{ in_stack = 0 }
		END {
			print p "_printed", events + 0
			print p "_lost", lost + 0
			printf "%s_depth %.1f\n", p, events ? frames / events : 0
		}' "$1" || return 1
	echo "${2}_bytes $(stat -c %s "$1")"
}

# bpf_map_facts OUT PREFIX: bpftrace's @[kstack] = count() map as it printed it on exit: the keys with a stack,
# the keys without one (a stack id that was lost: bpftrace prints an empty stack), the events each group
# counted, the distinct stacks among the printed ones; @events (every hit) and bpftrace's errors. A leading
# __traceiter_ frame does not make a stack distinct: a tracepoint calls its only probe straight (a static call),
# through its iterator once it has two (bpftrace alone, then with the module attached), and bpftrace's stack
# starts at its caller, so one call path gets two stack ids.
bpf_map_facts() {
	gawk -v p="$2" '
		/^@events: / { total = $2; next }
		/^@\[\]: / { empty++; lost += $2; next }
		/^@\[$/ { key = ""; in_key = 1; next }
		in_key && /^\]: [0-9]+$/ { in_key = 0; keys++; counted += $2; seen[key]++; next }
		in_key { if (!(key == "" && $1 ~ /^__traceiter_/)) key = key "|" $1; next }
		/ERROR|failed/ { errors++ }
		END {
			for (k in seen) distinct++
			print p "_keys", keys + 0
			print p "_distinct", distinct + 0
			print p "_counted", counted + 0
			print p "_empty_keys", empty + 0
			print p "_empty_counted", lost + 0
			print p "_events", total + 0
			print p "_errors", errors + 0
		}' "$1"
}

# stackid_match MAP OUT PREFIX: the module's map listing MAP (each stack with its hits, the insert among them;
# frames as %pS) against bpftrace's @[kstack] map in OUT, stack by stack: a frame is "function+offset" in both
# (the listing's hex offset made decimal; bpftrace's leading __traceiter_ frame dropped, which the module trims).
# A stack that runs through either tracer's own code (an interrupt in bpftrace's program, which BPF never
# nests, or in the module's probe) is counted apart: running both at once makes them, not the stack ids. Of
# the others, a stack of the map bpftrace did not print is lost, with its hits; a stack bpftrace counted more
# often than the map has hits of other stacks under its id, or of bpftrace's longer window (attaching,
# detaching); one only bpftrace printed is of that window.
stackid_match() {
	gawk -v p="$3" '
		function flush_map() { if (mkey != "") true[mkey] += mhits; mkey = "" }
		function tracer(k) { return k ~ /[|](trace_call_bpf|bpf_prog_|perf_trace_run_bpf_submit|stackmap_)/ }
		FNR == 1 { file++ }
		file == 1 && /^slot / { flush_map(); for (i = 1; i < NF; i++) if ($i == "hits") mhits = $(i + 1); mkey = "-"; next }
		file == 1 && /^ 0x/ {
			f = $2; sub(/\/.*/, "", f)
			if (match(f, /\+0x[0-9a-f]+$/)) f = substr(f, 1, RSTART) strtonum(substr(f, RSTART + 1))
			mkey = mkey "|" f
			next
		}
		file == 2 && /^@\[$/ { bkey = "-"; in_key = 1; next }
		file == 2 && in_key && /^\]: [0-9]+$/ { in_key = 0; got[bkey] += $2; next }
		file == 2 && in_key { if (!(bkey == "-" && $1 ~ /^__traceiter_/)) bkey = bkey "|" $1; next }
		END {
			flush_map()
			for (k in true) {
				nt++; et += true[k]
				if (tracer(k)) { if (!(k in got)) { tl++; etl += true[k] } }
				else if (!(k in got)) { lost++; elost += true[k] }
				else if (got[k] > true[k]) { more++; emore += got[k] - true[k] }
			}
			for (k in got)
				if (!(k in true)) { if (tracer(k)) { tb++; etb += got[k] } else { extra++; eextra += got[k] } }
			print p "_true_stacks", nt + 0
			print p "_true_events", et + 0
			print p "_lost_stacks", lost + 0
			print p "_lost_events", elost + 0
			print p "_more_stacks", more + 0
			print p "_more_events", emore + 0
			print p "_bpf_only_stacks", extra + 0
			print p "_bpf_only_events", eextra + 0
			print p "_tracer_map_stacks", tl + 0
			print p "_tracer_map_events", etl + 0
			print p "_tracer_bpf_stacks", tb + 0
			print p "_tracer_bpf_events", etb + 0
		}' "$1" "$2"
}

# "PREFIX_switches N" and "PREFIX_resolved N" for trace $2 decoded by $1
# (further arguments: more fgdecode options).
resolvable() {
	local out
	out=$("$1" "${@:4}" "$2" 2>/dev/null) || { log "fgdecode failed on $2"; return 1; }
	awk -v p="$3" 'index($0, ": sched_switch:") && !/^    [=<]/ { n++; pend = 1; next }
		pend && /^    => [A-Za-z_.]/ { r++ } { pend = 0 }
		END { print p "_switches", n + 0; print p "_resolved", r + 0 }' <<<"$out"
}

# B9s: for each recorder of each round, its ring-buffer bytes per event type,
# what fgdecode keeps and resolves (slab_kept), the map snapshot the front
# end stored and the module's stats; then the median of each figure over the
# rounds, under the key without its _rN.
run_b9s_host() {
	local share=$WORK/share-${BOOT1// /-} kb v r p dat raw=$WORK/b9s_rounds.txt
	: >"$raw"
	for kb in $B9S_BUFFERS_KB; do
		for v in $B9S_VARIANTS; do
			for ((r = 1; r <= B9S_ROUNDS; r++)); do
				p=b9s_${v}_${kb}_r$r
				dat=$share/$p.dat
				{
					trace_facts "$dat" "$p" && slab_kept "$WORK/fgdecode" "$dat" "$p" || return 1
					echo "${p}_snapshot_bytes $(trace-cmd dump --options -i "$dat" 2>/dev/null |
						awk '$1 == 21332 { print $2 }')"
					[[ ! -e $share/${p}_stats.txt ]] ||
						awk -v p="${p}_map_" '{ print p $1, $2 }' "$share/${p}_stats.txt"
				} >"$WORK/b9s_one.txt" || return 1
				cat "$WORK/b9s_one.txt" >>"$raw"
				per_event "$p" <"$WORK/b9s_one.txt" >>"$raw"
			done
		done
	done
	# The guest's own per-round figures (work time, overrun, entries) too.
	grep -h '^b9s_.*_r[0-9]*_' "$WORK/results.txt" "$raw" |
		awk '$2 ~ /^-?[0-9.]+$/ { k = $1; sub(/_r[0-9]+_/, "_", k); print k, $2 }' | sort -k1,1 -k2,2g |
		awk '$1 != key { flush(); key = $1; n = 0 } { v[++n] = $2 } END { flush() }
			function flush() { if (n) print key, n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' \
		>"$WORK/b9s_medians.txt" && cat "$WORK/b9s_medians.txt" >>"$WORK/results.txt"
}

# b9s_names SEP: the names of B9S_EVENTS without their systems, SEP between.
b9s_names() {
	local e out=""
	for e in $B9S_EVENTS; do
		out+="${out:+$1}${e#*:}"
	done
	echo "$out"
}

# per_event PREFIX: from one recorder's figures (stdin), its whole ring-buffer
# bytes per slab event kept and their split: the slab events' own bytes,
# their stacks' (kernel_stack, or every stackmap record) and of those the
# definitions'; and the definitions' share of the buffer kept.  With
# definitions, "floor_resolved": the resolvable events the same buffer would
# keep with one definition per distinct stack per CPU ("cpu_distinct", of
# the resolved events) instead of those it kept, each of the mean size, the
# bytes saved going to events of the mean size without definitions: about
# the most any rule of re-definition keeps in a buffer that defines its own
# stacks (a longer window holds more stacks, so a little less).
per_event() {
	awk -v p="$1_" -v names="$(b9s_names ' ')" '
	{ v[$1] = $2 }
	END {
		n = split(names, e, " ")
		for (i = 1; i <= n; i++)
			ev += v[p e[i] "_rb"]
		cnt = v[p "slab"]
		if (!cnt)
			exit
		tot = v[p "total_rb"]
		printf "%srb_per_event %.2f\n", p, tot / cnt
		printf "%sevent_rb_per_event %.2f\n", p, ev / cnt
		printf "%sstack_rb_per_event %.2f\n", p, (tot - ev) / cnt
		printf "%sdefine_rb_per_event %.2f\n", p, v[p "stack_define_rb"] / cnt
		printf "%sdefine_pct %.2f\n", p, tot ? 100 * v[p "stack_define_rb"] / tot : 0
		nd = v[p "stack_define_count"]
		if (nd > 0 && v[p "cpu_distinct"] > 0 && v[p "cpu_distinct"] < nd && tot > v[p "stack_define_rb"]) {
			saved = (nd - v[p "cpu_distinct"]) * v[p "stack_define_rb"] / nd
			printf "%sfloor_resolved %.0f\n", p, v[p "resolved"] * tot / (tot - saved)
		}
	}'
}

# slab_kept FGDECODE TRACE PREFIX: in fgdecode's text output of TRACE, the
# events of B9S_EVENTS kept ("PREFIX_slab"), those whose stack resolves
# ("PREFIX_resolved": the event line followed by a "    => SYMBOL" line, not
# a <...> marker nor a bare address, as run_b9_host counts), the time spans
# of both (first to last, seconds: "PREFIX_span_s", "PREFIX_resolved_span_s"),
# the distinct stacks among the resolved events and their mean depth; and
# from fgdecode's summary its definitions and the cookies it resolved only
# from the stored map snapshot.
slab_kept() {
	local out sum names
	names=$(b9s_names '|')
	out=$("$1" "$2" 2>"$WORK/b9s_summary.txt") || { log "fgdecode failed on $2"; return 1; }
	sum=$(cat "$WORK/b9s_summary.txt")
	awk -v p="$3" -v names="$names" -v sum="$sum" '
	function finish() {
		if (got) {
			distinct[stack] = 1
			cpu_distinct[cpu "|" stack] = 1
			frames += depth
		}
		pend = got = 0
	}
	/^    [=<]/ {
		if (pend && !seen_line && /^    => [A-Za-z_.]/) {
			got = 1; r++
			if (!r0) r0 = ts
			r1 = ts
		}
		seen_line = 1
		if (got && /^    => /) { stack = stack "|" $2; depth++ }
		next
	}
	{
		finish()
		if (match($0, " [0-9]+\\.[0-9]+: (" names "): ")) {
			ts = substr($0, RSTART + 1, RLENGTH) + 0
			cpu = match($0, /\[[0-9]+\] /) ? substr($0, RSTART + 1, RLENGTH - 3) + 0 : -1
			n++
			if (!t0) t0 = ts
			t1 = ts
			pend = 1; seen_line = 0; stack = ""; depth = 0
		}
	}
	function count(what,   m) {
		return match(sum, "[0-9]+ " what, m) ? m[0] + 0 : 0
	}
	END {
		finish()
		print p "_slab", n + 0
		print p "_resolved", r + 0
		printf "%s_span_s %.6f\n", p, t1 - t0
		printf "%s_resolved_span_s %.6f\n", p, r1 - r0
		nd = 0
		for (s in distinct)
			nd++
		print p "_distinct", nd
		nd = 0
		for (s in cpu_distinct)
			nd++
		print p "_cpu_distinct", nd
		printf "%s_mean_depth %.2f\n", p, r ? frames / r : 0
		print p "_definitions", count("definitions?")
		print p "_from_snapshot", count("from snapshot")
		print p "_unknown", count("unknown")
		print p "_orphan", count("orphan")
	}' <<<"$out"
}

# Events the decoder "$@" reports lost ("CPU:N [M EVENTS DROPPED]" lines;
# a line without a count adds 1).
dropped() {
	"$@" 2>/dev/null | awk '/^CPU:[0-9]+ \[[0-9]* ?EVENTS DROPPED\]/ {
		n = $2; sub(/^\[/, "", n); t += (n ~ /^[0-9]+$/) ? n : 1 } END { print t + 0 }'
}

# One run of "$@" (output to /dev/null): its seconds and peak RSS (KiB)
# appended to $WORK/time_$1.txt.
time_once() {
	local prefix=$1
	shift
	/usr/bin/time -f '%e %M' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/decoder.err" ||
		{ cat "$WORK/decoder.err" >&2; return 1; }
	cat "$WORK/time.txt" >>"$WORK/time_$prefix.txt"
}

# "$1_s" (the median of the runs time_once() noted) and "$1_rss_kb" (their
# peak) into results.txt.
time_summary() {
	sort -n "$WORK/time_$1.txt" | awk -v p="$1" '{ s[NR] = $1; m = $2 > m ? $2 : m }
		END { print p "_s", s[int((NR + 1) / 2)]; print p "_rss_kb", m }' >>"$WORK/results.txt"
	rm -f "$WORK/time_$1.txt"
}

# Median seconds and the peak RSS of DECODE_RUNS runs of "$@"; prefix $1.
time_decoder() {
	local prefix=$1 r
	shift
	for ((r = 0; r < DECODE_RUNS; r++)); do
		time_once "$prefix" "$@" || return 1
	done
	time_summary "$prefix"
}

# B2 and B7: both decoders on the B2 traces with the same event text on both
# sides: both with the libtraceevent plugins of the system directory (their
# default), and both without any (-N); and trace-cmd report with our plugin
# on the stackmap trace for context.
run_decode() {
	local share=$WORK/share-b2 r p
	# Rounds of one run each, so that a busy spell of a shared host slows
	# both sides of a ratio, not the one that happened to run then.
	for ((r = 0; r < DECODE_RUNS; r++)); do
		time_once b2_fgdecode env -u TRACEEVENT_PLUGIN_DIR "$WORK/fgdecode" "$share/b2_stackmap.dat" &&
			time_once b2_report env -u TRACEEVENT_PLUGIN_DIR trace-cmd report "$share/b2_stacktrace.dat" &&
			time_once b2_fgdecode_n "$WORK/fgdecode" -N "$share/b2_stackmap.dat" &&
			time_once b2_report_n trace-cmd report -N "$share/b2_stacktrace.dat" &&
			time_once b2_plugin env TRACEEVENT_PLUGIN_DIR="$WORK/plugin" trace-cmd report "$share/b2_stackmap.dat" ||
			return 1
	done
	for p in b2_fgdecode b2_report b2_fgdecode_n b2_report_n b2_plugin; do
		time_summary "$p"
	done
}

# B11: the answers (issue #16) against --folded in the same invocation, on
# the B2 stackmap trace: --weight with the same --event as its baseline,
# --off-cpu, and diff of the trace against itself (two traces' work).
run_answers() {
	local t=$WORK/share-b2/b2_stackmap.dat fg=$WORK/fgdecode
	time_decoder b11_folded "$fg" --folded "$t" &&
		time_decoder b11_folded_kmalloc "$fg" --folded --event kmalloc "$t" &&
		time_decoder b11_weight "$fg" --folded --weight bytes_alloc --event kmalloc "$t" &&
		time_decoder b11_offcpu "$fg" --folded --off-cpu "$t" &&
		time_decoder b11_diff "$fg" diff --folded "$t" "$t"
}

print_header() {
	local g=$WORK/guest.txt
	echo "# stackmap benchmarks"
	echo
	local how="" env=""
	[[ -z ${STACKMAP_KERNEL:-} ]] || env="STACKMAP_KERNEL=$STACKMAP_KERNEL "
	((QUICK)) && how+=" --quick"
	((ICOUNT)) && how+=" --icount"
	[[ $PARTS == "$DEFAULT_PARTS" ]] || how+=" --parts \"$PARTS\""
	echo "Generated by \`${env}tests/bench/run.sh$how\` on $(date -u +%Y-%m-%d) UTC."
	echo "Host: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), kernel $(uname -r)."
	echo "Guest: $(awk '/guest_kernel/ { print $2; exit }' "$g") under qemu TCG (B1, B5, B9, B9s: -smp ${BENCH_BOOT1_SMP:-1}; B2, B6: -smp $GUEST_SMP), busybox + stock trace-cmd."
	if ((ICOUNT)); then
		echo "Clock: qemu -icount shift=0,sleep=off: the guest's ns are instructions (B5's \"insns\"), whatever the host does."
	else
		echo "TCG guest: ratios are meaningful, absolute times are not.  Host shared with other work: noisy; medians."
	fi
	# Every boot writes them; the first boot's.
	echo "Guest mitigations: $(awk '/^guest_vuln_/ && !seen[$1]++ { k = substr($1, 12); $1 = ""
		sub(/^ /, ""); printf "%s%s: %s", n++ ? "; " : "", k, $0 }' "$g")."
	echo
}

# Is $1 one of the parts to run?
want() {
	[[ " $PARTS " == *" $1 "* ]]
}

main() {
	local p
	while (($#)); do
		case $1 in
		--quick) QUICK=1 ;;
		--icount) ICOUNT=1 ;;
		--parts)
			(($# > 1)) || usage
			PARTS=$2
			shift
			for p in $PARTS; do
				[[ " $ALL_PARTS " == *" $p "* ]] || usage
			done ;;
		*) usage ;;
		esac
		shift
	done
	set_sizes
	# The first guest boot runs those of B1, B5, B9, B9s that were asked for.
	BOOT1=""
	for p in b1 b5 b9 b9s; do
		want $p && BOOT1+="${BOOT1:+ }$p"
	done
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX")
	: >"$WORK/results.txt"
	: >"$WORK/guest.txt"
	attempt build build || true
	((${#FAILED[@]} == 0)) || { log "cannot build; see above"; exit 1; }
	machine_info
	! want b4 || attempt B4 run_b4
	# B5 patches kernel text some 300 times (every variant switches events
	# on and off): on two vCPUs its guest hung in 2 of 5 runs of one day
	# (run_qemu), on one vCPU it has not; its loop is single-threaded.
	# B9 counts per CPU buffer, which one vCPU keeps simple.
	if [[ -n $BOOT1 ]]; then
		attempt "${BOOT1^^} (guest)" run_guest "$BOOT1" 1G "${BENCH_BOOT1_SMP:-1}"
		! want b1 || attempt "B1 B7 (trace sizes, map stats)" run_b1_host
		! want b9 || attempt "B9 (flight recorders)" run_b9_host
		! want b9s || attempt "B9s (flight recorders, slab workload)" run_b9s_host
	fi
	if want b2; then
		attempt "B2 (guest)" run_guest b2 2G "$GUEST_SMP"
		attempt "B2 (trace sizes)" run_b2_host
		attempt "B2 B7 (decoders)" run_decode
		attempt "B11 (answers: --weight, --off-cpu, diff)" run_answers
	fi
	! want b6 || attempt "B6 (guest)" run_guest b6 "$B6_MEM" "$GUEST_SMP"
	# One vCPU, as B5 and B9; the initramfs holds perf's and bpftrace's libraries (LLVM: ~250 MB).
	if want peers; then
		attempt "Peers (guest)" run_guest peers 2G 1 "$PEERS_TIMEOUT"
		attempt "Peers (perf.data, bpftrace's output)" run_peers_host
	fi
	if want b3 || want b8; then
		# shellcheck disable=SC2046 # an empty word is not wanted in full mode
		attempt "B3 B8 (symbolization)" "$HERE/symbolize/run.sh" --prefix b8_ --append "$WORK/results.txt" \
			$( ((QUICK)) && echo --quick)
	fi
	if want b10; then
		[[ -s $TOP/build/vm-e2e-6.1/trace.dat ]] ||
			attempt "B10 (the vm-e2e@6.1 trace)" "$TOP/tests/run-tests.sh" vm-e2e@6.1
		attempt "B10 (time to first line)" "$HERE/firstline.sh" "$TOP/build/vm-e2e-6.1/trace.dat" \
			--append "$WORK/results.txt"
	fi
	{
		print_header
		awk -f "$HERE/table.awk" "$WORK/results.txt"
	} >"$WORK/table.md"
	cat "$WORK/table.md"
	# Only a full run of every part is RESULTS.md; a full-size run on another
	# kernel is RESULTS-NAME.md, whatever its parts.
	if ((!QUICK)) && [[ -n ${STACKMAP_KERNEL:-} ]]; then
		cp "$WORK/table.md" "$HERE/RESULTS-$STACKMAP_KERNEL.md"
	elif ((!QUICK)) && [[ $PARTS == "$DEFAULT_PARTS" ]]; then
		cp "$WORK/table.md" "$HERE/RESULTS.md"
	fi
	log "raw figures: $WORK/results.txt"
	if ((${#FAILED[@]})); then
		log "failed to run: ${FAILED[*]}"
		exit 1
	fi
}

main "$@"
