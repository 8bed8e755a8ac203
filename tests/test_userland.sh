#!/bin/bash
# Another Debian release's userland beside the host's (#22): trixie's gcc 14, libtraceevent 1.8.4, libtracecmd
# 1.5 and trace-cmd 3.3.1. In a copy of SUITE's fresh root (tests/roots.sh fresh) with the build dependencies and
# trace-cmd installed, a clean clone of HEAD:
#   1. build: the plugin, the record tools and fgdecode (-Werror), then the user-space unit suites with ASan and
#      UBSan (tests/lib, tests/decoder, tests/plugin)
#   2. record: stackmap.ko on the newest kernel (tests/kernels.sh newest) in the qemu guest, recorded by the
#      root's trace-cmd (run-vm.sh --userland; tests/vm/guest/userland.sh): its defaults (file version 7,
#      compressed), a recording with an instance, and one through the root's record front end
#      (record/trace-cmd record -O stackmap, storing the snapshot with the root's stackmap-snapshot), and a flight
#      recorder (trace-cmd start -b 64, stop) extracted through the front end, which stores the snapshot too
#   3. snapshot: the root's stackmap-snapshot stores the map in a copy of the default recording; the host's reads
#      it back with every entry of the guest's listing (the v7 option walker on what libtracecmd 1.5 writes)
#   4. decode: the four recordings and the snapshot copy with both userlands, the root's and the host's: every
#      cookie resolved, event lines equal to that userland's trace-cmd report, plugin and fgdecode agreeing, and
#      each less its last 118 bytes decoded (tests/decoder/check_traces.sh)
#   5. suites: the decoder suites on TRACE (the vm-e2e@6.1 recording the host's suites use) with the root's build:
#      identity (against the root's trace-cmd report) and bad input in the root, with its libtracecmd 1.5;
#      pprof and flame graph on the host, their consumers (go tool pprof, Chromium) reading what the root's
#      fgdecode wrote (FGDECODE_SAN: a wrapper that runs it in the root)
# Usage: tests/test_userland.sh [SUITE [TRACE]]   (default trixie and build/vm-e2e-6.1/trace.dat). Needs root.
# Prints each step's time.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${STACKMAP_ROOTS:-/var/cache/stackmap/roots}
WORK=${WORK:-/var/tmp/stackmap-userland}
REV=${USERLAND_REV:-HEAD}
KERNEL=${USERLAND_KERNEL:-newest}
PROG=test_userland
PACKAGES="build-essential pkg-config gawk check libtracecmd-dev libtraceevent-dev libtracefs-dev libdw-dev libelf-dev
	libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libzstd-dev trace-cmd elfutils"
ROOT_BINDS=()
# shellcheck source=tests/root_lib.sh
. "$ROOT/tests/root_lib.sh"

fail() {
	echo "test_userland: $1: FAIL: $2" >&2
	exit 1
}

# record SUITE DIR OUT: the guest's recordings with DIR's trace-cmd, in OUT.
record() {
	local suite=$1 dir=$2 out=$3 ko start=$SECONDS vm_args
	ko=$("$ROOT/tests/kernels.sh" module "$KERNEL" 2>"$WORK/$suite.log.kmod") ||
		fail "$suite" "no stackmap.ko for kernel $KERNEL ($WORK/$suite.log.kmod)"
	mapfile -t vm_args < <("$ROOT/tests/kernels.sh" vm-args "$KERNEL")
	rm -rf "$out" "$WORK/$suite.extra"
	mkdir -p "$out" "$WORK/$suite.extra"
	# stackmap-snapshot links libtracecmd, which the root's trace-cmd (run-vm.sh --userland copies its
	# libraries) does not: the guest finds it in /extra, under its soname.
	cp -L "$dir/usr/lib/x86_64-linux-gnu/libtracecmd.so.1" "$WORK/$suite.extra/" ||
		fail "$suite" "no libtracecmd.so.1 in the root"
	echo "$PROG: $suite: record on $KERNEL ($("$ROOT/tests/kernels.sh" kver "$KERNEL")) with the root's trace-cmd"
	"$ROOT/tests/vm/run-vm.sh" --module "$ko" "${vm_args[@]}" --userland "$dir" \
		--extra "$dir/root/stackmap/record/trace-cmd" "$dir/root/stackmap/record/stackmap-snapshot" \
		"$WORK/$suite.extra/libtracecmd.so.1" \
		--guest-script "$ROOT/tests/vm/guest/userland.sh" --share "$out" --timeout 300 >"$WORK/$suite.log.record" 2>&1 ||
		{ tail -n 20 "$WORK/$suite.log.record"; fail "$suite" "the guest failed (log: $WORK/$suite.log.record, $out/console.log)"; }
	grep '^guest: trace-cmd version' "$out/console.log" | tr -d '\r' || true
	echo "$PROG: $suite: record passed in $((SECONDS - start)) s"
}

# check_snapshot SUITE OUT: the host's stackmap-snapshot reads the snapshot the root's wrote, with every entry of
# the guest's stack_map listing.
check_snapshot() {
	local head want
	make -s -C "$ROOT/record" >/dev/null || fail "$1" "make -C record on the host"
	head=$("$ROOT/record/stackmap-snapshot" show "$2/snapshot.dat" | sed -n 1p) ||
		fail "$1" "the host's stackmap-snapshot cannot read $2/snapshot.dat"
	want=$(grep -c '^slot ' "$2/stack_map.txt")
	[[ $head == *" entries $want "* ]] || fail "$1" "snapshot '$head', the listing has $want entries"
	echo "$PROG: $1: snapshot: the host reads '$head' ($want entries in the listing)"
	# The front end's own snapshot, stored over trace-cmd 3.3.1's recording.
	head=$("$ROOT/record/stackmap-snapshot" show "$2/frontend.dat" | sed -n 1p) ||
		fail "$1" "the host's stackmap-snapshot finds no snapshot in the front end's $2/frontend.dat"
	[[ $head =~ " entries "([1-9][0-9]*)" " ]] || fail "$1" "frontend.dat's snapshot: '$head'"
	echo "$PROG: $1: front end: frontend.dat's snapshot: '$head'"
	# The front end's extract stores the map as the guest listed it after detaching: the same entries.
	head=$("$ROOT/record/stackmap-snapshot" show "$2/extract.dat" | sed -n 1p) ||
		fail "$1" "the host's stackmap-snapshot finds no snapshot in the front end's $2/extract.dat"
	want=$(grep -c '^slot ' "$2/extract.stack_map")
	[[ $head == *" entries $want "* ]] || fail "$1" "extract.dat's snapshot '$head', the listing has $want entries"
	echo "$PROG: $1: front end: extract.dat's snapshot: '$head' ($want entries in the listing)"
}

# fgdecode_in_root SUITE DIR TRACE: a program that runs DIR's fgdecode_san with its arguments, from the current
# directory, seeing this tree, /tmp, the cache of debug files and TRACE's directory at their own paths, and the
# sanitizers' options of the caller. Prints its path.
fgdecode_in_root() {
	local wrapper=$WORK/$1.fgdecode_san
	cat >"$wrapper" <<-EOF
		#!/bin/bash
		# $PROG: $2's /root/stackmap/tests/decoder/fgdecode_san, run by tests/roots.sh.
		vars=()
		for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS TMPDIR TZ; do
			[[ -v \$v ]] && vars+=("\$v=\${!v}")
		done
		exec "$ROOT/tests/roots.sh" run "$2" --bind /tmp --bind "$ROOT" --bind "$(dirname "$(realpath "$3")")" \\
			\$( [[ -d /var/cache/stackmap ]] && echo --bind /var/cache/stackmap ) -- \\
			/bin/sh -c 'cd "\$1" 2>/dev/null || cd /; shift; exec env "\$@"' sh "\$PWD" "\${vars[@]}" \\
			/root/stackmap/tests/decoder/fgdecode_san "\$@"
	EOF
	chmod +x "$wrapper"
	echo "$wrapper"
}

# suites SUITE DIR LOG TRACE: the decoder suites with the root's build (step 5 above).
suites() {
	local suite=$1 dir=$2 log=$3 trace t start fg
	trace=$(realpath "$4")
	ROOT_BINDS=("$(dirname "$trace")")
	root_step "$suite" "$dir" "$log" identity /root/stackmap/tests/decoder/test_identity.sh "$trace" \
		/root/stackmap/tests/fixtures/traces/views.dat /root/stackmap/tests/fixtures/traces/kstack.dat
	root_step "$suite" "$dir" "$log" badinput /root/stackmap/tests/decoder/test_badinput.sh "$trace"
	fg=$(fgdecode_in_root "$suite" "$dir" "$trace")
	for t in pprof flamegraph; do
		start=$SECONDS
		echo "$PROG: $suite: $t (the root's fgdecode, the host's consumer)"
		FGDECODE_SAN=$fg "$ROOT/tests/decoder/test_$t.sh" "$trace" >"$log.$t" 2>&1 ||
			{ tail -n 15 "$log.$t"; fail "$suite" "test_$t.sh with the root's fgdecode (log: $log.$t)"; }
		tail -n 2 "$log.$t"
		echo "$PROG: $suite: $t passed in $((SECONDS - start)) s"
	done
}

main() {
	local suite=${1:-trixie} trace=${2:-$ROOT/build/vm-e2e-6.1/trace.dat} dir log out start=$SECONDS step_start
	((EUID == 0)) || fail "$suite" "needs root (debootstrap, chroot)"
	[[ -r $trace ]] || fail "$suite" "no $trace to run the decoder suites on (run tests/run-tests.sh vm-e2e@6.1 first)"
	dir=$WORK/$suite log=$WORK/$suite.log out=$ROOT/build/userland-$suite
	mkdir -p "$WORK"
	rm -f "$log".*
	root_copy "$suite" "$dir"
	root_clone "$suite" "$dir" "$REV"
	# shellcheck disable=SC2086 # one word per package
	root_step "$suite" "$dir" "$log" deps bash -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(echo $PACKAGES)"
	root_step "$suite" "$dir" "$log" build bash -c 'cd /root/stackmap && make plugin record decoder && make -C tests/decoder all'
	root_step "$suite" "$dir" "$log" unit bash -c 'cd /root/stackmap && make -C tests/lib check && make -C tests/decoder check && make -C tests/plugin all check'
	record "$suite" "$dir" "$out"
	ROOT_BINDS=("$out")
	# The map snapshot stored by the root's stackmap-snapshot (libtracecmd 1.5) in a copy of trace-cmd 3.3.1's
	# default recording: both userlands' option walkers (lib/tracedat_options.c) must find it.
	root_step "$suite" "$dir" "$log" snapshot bash -c "cp '$out/default.dat' '$out/snapshot.dat' &&
		/root/stackmap/record/stackmap-snapshot write '$out/snapshot.dat' '$out/stack_map.txt' &&
		/root/stackmap/record/stackmap-snapshot show '$out/snapshot.dat' | head -n 1"
	check_snapshot "$suite" "$out"
	root_step "$suite" "$dir" "$log" decode-"$suite" /root/stackmap/tests/decoder/check_traces.sh "$out/default.dat" \
		"$out/instance.dat" "$out/snapshot.dat" "$out/frontend.dat" "$out/extract.dat"
	step_start=$SECONDS
	echo "$PROG: $suite: decode-host"
	make -s -C "$ROOT/tests/decoder" fgdecode_san >/dev/null || fail "$suite" "make -C tests/decoder fgdecode_san on the host"
	"$ROOT/tests/decoder/check_traces.sh" "$out/default.dat" "$out/instance.dat" "$out/snapshot.dat" \
		"$out/frontend.dat" "$out/extract.dat" >"$log.decode-host" 2>&1 ||
		{ tail -n 20 "$log.decode-host"; fail "$suite" "the host's userland on the root's recordings (log: $log.decode-host)"; }
	tail -n 3 "$log.decode-host"
	echo "$PROG: $suite: decode-host passed in $((SECONDS - step_start)) s"
	suites "$suite" "$dir" "$log" "$trace"
	((${KEEP:-0})) || rm -rf "$dir" "$WORK/$suite.extra"
	echo "$PROG: $suite: PASS in $((SECONDS - start)) s"
}

main "$@"
