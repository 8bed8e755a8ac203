#!/bin/bash
# Run every test suite of stackmap, each as one step, and end with a table of
# every suite's result and time and the line "suites: N passed, N failed".
# Exit status: 0 only if every suite passed.
# Usage: tests/run-tests.sh [--list] [SUITE ...]   (default: all, in the order below; --list prints the
#        suites it would run, one a line, and runs none)
#        tests/run-tests.sh --table   the table of suites below: NAME WHERE COMMAND, one suite a line
#
# The module is built (kmod-build, with W=1 and no warning allowed) and the
# VM suites run per kernel (names of tests/kernels.sh), as SUITE@KERNEL:
# vm-e2e@6.12 runs tests/vm/test_e2e.sh with STACKMAP_KERNEL=6.12. Which
# suite runs on which kernel is in the table of suites below, chosen by what each
# kernel can break (tests/README.md "Kernels"); KERNELS="6.12 newest" runs every
# per-kernel suite on those kernels instead. A per-kernel SUITE without
# @KERNEL means it on its kernels. The other suites run once, on the default
# kernel, with the host's userland (printed first).
#
# Then the debug kernel (DEBUG_KERNEL, default "debug": tests/kernels/
# debug-kernel.sh builds it once per machine from Debian's linux-source-6.1
# with KASAN, lockdep, UBSAN, module signing and the lockdown LSM): the
# suite debug-kernel builds it, the per-kernel suites of DEBUG_SUITES
# (default "kmod-build vm-module vm-lifecycle"; vm-e2e there would add 5
# minutes of qemu to a CI run near its limit) run on it, then
# vm-debug (a module that sleeps in its probe must fail the run, the real
# one pass) and vm-lockdown (a signed module under lockdown=integrity).
# DEBUG_KERNEL= (empty) leaves all of that out; DEBUG_KERNEL=debug-newest
# runs it on the same configuration built from the newest kernel's source
# (tests/kernels.sh; about three times as slow, so not the default).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2

# 6.12-arm64: Debian's arm64 kernel of Android's android16-6.12 base, its guests under qemu-system-aarch64
# (tests/vm/run-vm.sh --arch arm64), cross-built for with gcc-aarch64-linux-gnu (issue #39).
ALL_KERNELS=(6.1 6.12 6.12-rt newest 6.12-arm64)
# Kernels a suite's column may name that the default run leaves out (not in ALL_KERNELS): they run when named,
# as SUITE@KERNEL or in KERNELS. newest-arm64 (7.3 on arm64) until CI's time allows a second arm64 kernel.
OPT_IN_KERNELS=(newest-arm64)
# KERNELS given: every per-kernel suite on each of them (MATRIX is the default's).
KERNELS_GIVEN=${KERNELS:+1}
read -ra KERNELS <<<"${KERNELS:-${ALL_KERNELS[*]}}"
DEBUG_KERNEL=${DEBUG_KERNEL-debug}
read -ra DEBUG_SUITES <<<"${DEBUG_SUITES:-kmod-build vm-module vm-lifecycle}"
# Recordings the decoder's bad-input test and the fuzz seeds are made from:
# vm-e2e's on the first kernel.
E2E_TRACE=build/vm-e2e-${KERNELS[0]}/trace.dat

# The suites, one a line, in the order of the default run: NAME, WHERE, and the COMMAND (the rest of the line;
# $E2E_TRACE and $DEBUG_KERNEL are filled in here, \$ is left to the suite's shell). WHERE is
#   once     in the default run, on the default kernel, with the host's userland;
#   K,K,...  a per-kernel suite and the kernels it runs on by default, as NAME@K with STACKMAP_KERNEL=K; a
#            kernel of OPT_IN_KERNELS there runs only when named (NAME@K, or KERNELS=K);
#   opt-in   only when named;
#   debug    the debug kernel's part, run where "debug" stands in the order (the place of its first line): its
#            first line builds the kernel, then the per-kernel suites of DEBUG_SUITES run on it, then its others.
# A new suite is one line here: tests/test_man.sh checks that tests/README.md's "Suites" names these, and only
# these. The kernels of a per-kernel suite are chosen by what a kernel can break there: the module's build and
# the pairing oracle (a recording that loses records, checked stack by stack) on every one; the end-to-end
# recording the decoder suites read on 6.1 and newest; the answers (context nesting) where probes nest or are
# preempted (RT, newest); the debuginfo check once per compiler that wrote the DWARF (gcc 12: 6.1; gcc 14:
# newest); the front end and the recording modes once per tracefs and ring buffer generation (6.1, newest); the
# stress on RT and newest; the lifecycle on each module API (6.1, 6.12, newest). 6.1 runs them all. On newest
# the pairing and the module stress run in vm-smp, with a TCG thread per vCPU, and not a second time with one
# thread for all.
SUITE_TABLE=$(cat <<EOF
map-unit            once                     make -C tests/kmod check
lib-unit            once                     make -C tests/lib check
decoder-unit        once                     make -C tests/decoder check
plugin-unit         once                     make -C tests/plugin check
# the man pages render without warnings and name every option --help lists; tests/README.md names every suite
man                 once                     tests/test_man.sh
install             once                     tests/test_install.sh
# the Debian packages built, installed, recorded with in the guest and purged in fresh bookworm and trixie roots
deb                 once                     tests/test_deb.sh bookworm trixie
kmod-build          6.1,6.12,6.12-rt,newest,6.12-arm64,newest-arm64 tests/kmod-build.sh
vm-harness          once                     tests/vm/selftest.sh
vm-e2e              6.1,newest,6.12-arm64,newest-arm64 tests/vm/test_e2e.sh
# no stack under another event where the ring buffer loses records; on arm64 too (vm-pairing@6.12 by name: 6.12's
# typed probes are checked on 6.12-rt and 6.12-arm64, and its 3-6 minutes pay for arm64's run in CI)
vm-pairing          6.1,6.12-rt,6.12-arm64   tests/vm/test_pairing.sh
# fgdecode's --weight, --off-cpu, --wakers and diff against known work (vm-answers@6.12-rt by name: its
# nesting is the newest kernel's and 6.1's, and its 2-3 minutes pay for arm64's end-to-end run in CI)
vm-answers          6.1,newest               tests/vm/test_answers.sh
decoder-badinput    once                     tests/decoder/test_badinput.sh $E2E_TRACE
# vm-e2e's trace of that kernel
decoder-dbg         6.1,newest               tests/decoder/test_dbg.sh
decoder-pprof       once                     tests/decoder/test_pprof.sh $E2E_TRACE
decoder-flamegraph  once                     tests/decoder/test_flamegraph.sh $E2E_TRACE
# --perf-script read by speedscope in headless Chromium
decoder-perf-script once                     tests/decoder/test_perf_script.sh $E2E_TRACE
decoder-identity    once                     tests/decoder/test_identity.sh $E2E_TRACE tests/fixtures/traces/views.dat tests/fixtures/traces/kstack.dat
# the arm64 fixture read here: every output equal to the arm64 build's decode under qemu-user (committed), the
# guest's stack_map and the plugin agreeing; no arm64 toolchain needed (tests/decoder/test_cross_arch.sh)
decoder-cross-arch  once                     tests/decoder/test_cross_arch.sh
# bytes of a trace's headers, options and CPU data changed one at a time, on a v7 zstd and a v6 trace: each decode
# gives every event, refuses in one line, or says what it lost (tests/decoder/test_corruption.py); here its fixed
# sample of 300 positions a trace (about a minute on 2 cores), CASES=0 for every position (3-5 minutes)
decoder-corruption  once                     tests/decoder/test_corruption.py
# trixie's userland: build, unit suites, trace-cmd 3.3.1 recordings decoded by both userlands, the decoder
# suites on the vm-e2e@6.1 recording with its build
userland            once                     tests/test_userland.sh trixie $E2E_TRACE
vm-frontend         6.1,newest               tests/vm/test_frontend.sh
vm-modes            6.1,newest               tests/vm/test_modes.sh
vm-module           6.1,6.12-rt              tests/vm/test_module.sh
vm-lifecycle        6.1,6.12,newest,6.12-arm64 tests/vm/test_lifecycle.sh
# a typed hit the recursion lock refuses leaves no task pinned: its CPU goes offline (7.x pins; test build); ftrace
# cannot be switched off under a typed probe (6.12: the sysctl still can elsewhere)
vm-pinleak          6.12,newest              tests/vm/test_pinleak.sh
# instances and recordings that come and go under running probes, resets between (STACKMAP_KERNEL=kcsan: races)
vm-churn            6.1                      tests/vm/test_churn.sh
# pairing and module suites on the newest kernel with a TCG thread per vCPU, under trixie's QEMU 10
vm-smp              once                     tests/vm/test_smp.sh
bench-quick         once                     tests/bench/run.sh --quick
fuzz-smoke          once                     make -C tests/fuzz run SECONDS=\${FUZZ_SECONDS:-15} TRACE=\$PWD/$E2E_TRACE && make -C tests/fuzz regress TRACE=\$PWD/$E2E_TRACE
# every output byte for byte as at OUTPUTS_BASE, the last change of an output on purpose: it guards refactors
# of the decoder (the outputs issue) against a base revision that each deliberate output change moves; its
# 138-229 s a CI run near its time limit spends better on kernels: run it by name before changing an output or
# the pipeline
decoder-outputs     opt-in                   tests/decoder/test_outputs.sh
# the reverse: the arm64 fgdecode and plugin, cross-built and run under qemu-user, on the x86-64 fixtures, equal
# to the host's; opt-in for its 2 minutes of qemu-user and the arm64 cross compiler and sysroot it needs
decoder-arm64       opt-in                   tests/arm64/test_decode.sh
# the arm64 fixture symbolized with Debian's arm64 -dbg vmlinux and modules (file:line, inlined frames) against
# eu-addr2line; opt-in for its first run's 1 GB download (105 s; 3 s after)
decoder-dbg-arm64   opt-in                   STACKMAP_KERNEL=6.12-arm64 tests/decoder/test_dbg.sh tests/fixtures/traces/arm64/views.dat
# the arm64 packages: cross-built by make deb (DEB_HOST_ARCH=arm64) and lintian-clean in a bookworm root, then
# installed in an arm64 root under qemu-user, where DKMS builds the module for 6.12-arm64 and the packaged fgdecode
# and plugin decode the arm64 fixture as committed; opt-in for its 15-20 minutes, most of them emulated dpkg and DKMS
deb-arm64           opt-in                   tests/test_deb_arm64.sh
# the KernelShark plugin's stacks against fgdecode's, then KernelShark itself under Xvfb (a click, the panel's
# text, a screenshot); opt-in: it installs kernelshark, libkshark-dev and Qt's -dev packages (about 30 s after)
kshark              opt-in                   tests/kshark/test_kshark.sh $E2E_TRACE
# the same in a fresh trixie root, with trixie's KernelShark 2.4.0 (Qt 6): the plugin built there, KernelShark
# under the root's Xvfb; opt-in (about 65 s with apt's downloads cached in the roots' cache)
kshark-trixie       opt-in                   tests/kshark/test_kshark_root.sh trixie $E2E_TRACE
debug-kernel        debug                    tests/kernels.sh prepare $DEBUG_KERNEL
vm-debug            debug                    STACKMAP_KERNEL=$DEBUG_KERNEL tests/vm/test_debug.sh
vm-lockdown         debug                    STACKMAP_KERNEL=$DEBUG_KERNEL tests/vm/test_lockdown.sh
EOF
)
# From the table: SUITES (the command of a suite run by name alone), PER_KERNEL (of a suite run per kernel),
# MATRIX (the kernels of each of those), ORDER (the default run; "debug" stands for DEBUG_PART), OPT_IN,
# DEBUG_PART.
declare -A SUITES=() PER_KERNEL=() MATRIX=()
ORDER=() OPT_IN=() DEBUG_PART=()
while read -r name where cmd; do
	[[ -n $name && $name != \#* ]] || continue
	case $where in
	once | opt-in | debug) SUITES[$name]=$cmd ;;
	*)
		PER_KERNEL[$name]=$cmd MATRIX[$name]=${where//,/ }
		for k in ${MATRIX[$name]}; do
			[[ " ${ALL_KERNELS[*]} ${OPT_IN_KERNELS[*]} " == *" $k "* ]] ||
				{ echo "run-tests: suite $name names kernel $k, in neither ALL_KERNELS nor OPT_IN_KERNELS" >&2; exit 2; }
		done ;;
	esac
	case $where in
	opt-in) OPT_IN+=("$name") ;;
	debug)
		((${#DEBUG_PART[@]})) || ORDER+=(debug)
		DEBUG_PART+=("$name") ;;
	*) ORDER+=("$name") ;;
	esac
done <<<"$SUITE_TABLE"
# Per-kernel suites known to fail on a kernel, with why: reported as SKIP in
# the default run (named explicitly, they run).  Each is an open problem.
declare -A KNOWN_BAD=(
)

# expand NAME: the suite names NAME stands for (NAME@KERNEL for each kernel of a per-kernel suite).
expand() {
	local name=$1 k
	if [[ $name == debug ]]; then
		[[ -n $DEBUG_KERNEL ]] || return 0
		echo "${DEBUG_PART[0]}"
		for k in "${DEBUG_SUITES[@]}"; do echo "$k@$DEBUG_KERNEL"; done
		printf '%s\n' "${DEBUG_PART[@]:1}"
	elif [[ -n ${PER_KERNEL[$name]:-} ]]; then
		for k in "${KERNELS[@]}"; do
			if [[ -n $KERNELS_GIVEN || " ${MATRIX[$name]} " == *" $k "* ]]; then echo "$name@$k"; fi
		done
	elif [[ -n ${SUITES[$name]:-} || ($name == *@* && -n ${PER_KERNEL[${name%@*}]:-}) ]]; then
		echo "$name"
	else
		echo "run-tests: unknown suite $name (have: ${ORDER[*]} ${OPT_IN[*]} ${DEBUG_PART[*]}; per kernel: NAME@KERNEL)" >&2
		return 1
	fi
}

# userland: the distribution and the versions of the tracing tools the suites
# build and run with (the guests run the host's trace-cmd too).
userland() {
	local v p out
	. /etc/os-release
	out="$PRETTY_NAME:"
	for p in trace-cmd libtraceevent-dev libtracefs-dev libdw-dev; do
		v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) || v=none
		out+=" ${p%-dev} $v"
	done
	echo "$out"
}

# suite_command NAME: the shell command of one expanded suite.
suite_command() {
	local name=$1
	if [[ $name == *@* ]]; then
		echo "STACKMAP_KERNEL=${name#*@} ${PER_KERNEL[${name%@*}]}"
	else
		echo "${SUITES[$name]}"
	fi
}

# why_failed: the last line the failed suite wrote to stderr, or else its
# last FAIL line on stdout (tests that report on stdout); then, when a guest
# run failed, run-vm's own reason (a kernel report and where, a hang) on a
# line of its own, since the test's line only names the exit code.
why_failed() {
	local line harness
	line=$(grep -a -v '^[[:space:]]*$' "$errlog" | tail -n 1)
	[[ -n $line ]] || line=$(grep -a -i 'fail' "$outlog" | tail -n 1)
	echo "${line:-nothing on stderr and no FAIL line: see its output above}"
	harness=$(grep -a '^run-vm: .* failed: ' "$errlog" | tail -n 1)
	[[ -z $harness || $harness == "$line" ]] || echo "  $harness"
}

main() {
	local passed=0 failed=0 skipped=0 names=("$@") expanded=() out name cmd start rc secs table=() why=() total=$SECONDS
	local explicit=$# list=0
	if [[ ${1:-} == --table ]]; then grep -v -e '^#' -e '^$' <<<"$SUITE_TABLE"; return 0; fi
	if [[ ${1:-} == --list ]]; then list=1 explicit=$((explicit - 1)) names=("${@:2}"); fi
	((${#names[@]})) || names=("${ORDER[@]}")
	for name in "${names[@]}"; do
		out=$(expand "$name") || return 2
		[[ -z $out ]] || mapfile -t -O "${#expanded[@]}" expanded <<<"$out"
	done
	if ((list)); then printf '%s\n' "${expanded[@]}"; return 0; fi
	echo "=== kernels: ${KERNELS[*]}${DEBUG_KERNEL:+; debug kernel: $DEBUG_KERNEL (${DEBUG_SUITES[*]} ${DEBUG_PART[*]:1})}"
	echo "=== userland: $(userland)"
	errlog=$(mktemp) && outlog=$(mktemp) || return 2
	trap 'rm -f "$errlog" "$outlog"' EXIT
	for name in "${expanded[@]}"; do
		if ((!explicit)) && [[ -n ${KNOWN_BAD[$name]:-} ]]; then
			skipped=$((skipped + 1))
			echo "=== suite $name: SKIP (${KNOWN_BAD[$name]})"
			table+=("$(printf '%-24s SKIP' "$name")")
			continue
		fi
		cmd=$(suite_command "$name")
		echo "=== suite $name: $cmd"
		start=$SECONDS
		# Keep the suite's stderr: its last line is why it failed.
		{ bash -c "$cmd" 2>&1 1>&3 3>&- | tee "$errlog" >&2; exit "${PIPESTATUS[0]}"; } 3>&1 | tee "$outlog"
		rc=${PIPESTATUS[0]}
		secs=$((SECONDS - start))
		if ((rc == 0)); then
			passed=$((passed + 1))
			echo "=== suite $name: PASS ($secs s)"
			table+=("$(printf '%-24s PASS %6d s' "$name" "$secs")")
		else
			failed=$((failed + 1))
			echo "=== suite $name: FAIL (exit $rc, $secs s)"
			table+=("$(printf '%-24s FAIL %6d s  (exit %d)' "$name" "$secs" "$rc")")
			why+=("$(printf 'why %s: %s' "$name" "$(why_failed | cut -c1-400)")")
		fi
	done
	echo "=== times"
	printf '%s\n' "${table[@]}"
	# The failures' reasons last, where a log's tail still shows them.
	((${#why[@]} == 0)) || printf '%s\n' "${why[@]}"
	echo "total $((SECONDS - total)) s"
	echo "suites: $passed passed, $failed failed, $skipped skipped"
	((failed == 0))
}

main "$@"
