#!/bin/bash
# The arm64 build reads what x86-64 recorded (issue #39 item 3, the reverse way; suite decoder-arm64, opt-in: it
# needs gcc-aarch64-linux-gnu and qemu-user-static, and takes about 2 minutes of qemu-user):
#   x86-64 fixtures  tests/fixtures/traces/views.dat (cookies) and kstack.dat (-O stacktrace), each decode of
#               tests/decoder/cross_arch_lib.sh by the arm64 fgdecode and trace-cmd report with the arm64 plugin
#               (tests/arm64/build.sh, run under qemu-user with bookworm's arm64 libraries) byte for byte the
#               host's, standard error too; diff against the arm64 fixture
#   arm64 fixture  this tree's arm64 build gives the arm64 decode committed in tests/fixtures/traces/arm64/decode/
#               (else tests/arm64/decode-fixture.sh must write it again: make check compares the host's with it)
#   dwarf       when Debian's arm64 -dbg vmlinux and modules of the arm64 fixture are in the cache (suite
#               decoder-dbg-arm64 fetches them): text, --folded, --json, --pprof and --perf-script of the arm64
#               fixture with --vmlinux and --modules (file:line, inlined frames) equal on both sides
# Usage: tests/arm64/test_decode.sh   (after make decoder plugin: the host's side)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TRACES=$ROOT/tests/fixtures/traces
# shellcheck source=tests/decoder/cross_arch_lib.sh
. "$ROOT/tests/decoder/cross_arch_lib.sh"
# shellcheck source=tests/decoder/check_lib.sh
. "$ROOT/tests/decoder/check_lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# host / arm64: the decoders and plugins of each side, for cross_arch_decode.
host() {
	CROSS_ARCH_FGDECODE=$ROOT/decoder/fgdecode CROSS_ARCH_TRACECMD=trace-cmd CROSS_ARCH_PLUGIN_DIR=$ROOT/plugin "$@"
}
arm64() {
	CROSS_ARCH_FGDECODE=$ROOT/tests/arm64/fgdecode CROSS_ARCH_TRACECMD=$ROOT/tests/arm64/trace-cmd \
		CROSS_ARCH_PLUGIN_DIR=$ROOT/build/arm64/plugin "$@"
}

# compare LABEL DIR-A DIR-B: every decode of the table (and stderr) in A equal to B's.
compare() {
	local label=$1 a=$2 b=$3 name why n=0 bad=0
	for name in $(awk 'NF { print $1 }' <<<"$CROSS_ARCH_DECODES") stderr; do
		[[ -f $a/$name || -f $b/$name ]] || continue
		why=""
		if [[ ! -f $a/$name || ! -f $b/$name ]]; then
			why="on one side only"
		elif ! cmp -s "$a/$name" "$b/$name"; then
			why="differs: $(diff "$a/$name" "$b/$name" | head -n 3 | tr '\n' ' ')"
		fi
		[[ -z $why ]] || { echo "   $name $why"; bad=$((bad + 1)); }
		n=$((n + 1))
	done
	check "$label" "$( ((bad == 0)) || echo "$bad of $n outputs differ (above)")"
	((bad)) || echo "   $n outputs equal, $(cat "$a"/* | wc -c) bytes"
}

# dwarf: the arm64 fixture symbolized with Debian's -dbg files by both builds (where test_dbg.sh left them).
dwarf() {
	local rel dbg fg side name args start
	rel=$(trace-cmd report --uname -i "$TRACES/arm64/views.dat" 2>/dev/null | gawk 'NR == 2 { print $3 }')
	dbg=${STACKMAP_CACHE:-/var/cache/stackmap}/debuginfo/$rel/usr/lib/debug
	if [[ ! -s $dbg/boot/vmlinux-$rel ]]; then
		echo "== dwarf: no $dbg/boot/vmlinux-$rel (tests/run-tests.sh decoder-dbg-arm64 fetches it): not compared"
		return 0
	fi
	start=$SECONDS
	for side in host arm64; do
		fg=$ROOT/decoder/fgdecode
		[[ $side == host ]] || fg=$ROOT/tests/arm64/fgdecode
		mkdir -p "$TMP/dwarf-$side"
		while read -r name args; do
			# shellcheck disable=SC2086 # the output's options, words
			(cd "$TRACES/arm64" && "$fg" --no-summary --vmlinux "$dbg/boot/vmlinux-$rel" \
				--modules "$dbg/lib/modules/$rel" $args views.dat) >"$TMP/dwarf-$side/$name" 2>&1 ||
				{ check dwarf "$side fgdecode --vmlinux ... $args failed: $(tail -n 1 "$TMP/dwarf-$side/$name")"; return; }
		done <<<$'text\nfolded --folded\njson --json\npprof --pprof -\nperf-script --perf-script'
	done
	echo "== dwarf: the arm64 fixture with $rel's -dbg vmlinux and modules, both sides in $((SECONDS - start)) s ($(grep -c ' (inlined) ' "$TMP/dwarf-host/text") inlined frames in the text)"
	if diff -r "$TMP/dwarf-host" "$TMP/dwarf-arm64" >"$TMP/dwarf.diff"; then
		check "dwarf: arm64 decode = x86-64 decode" ""
	else
		check "dwarf: arm64 decode = x86-64 decode" "$(head -n 3 "$TMP/dwarf.diff" | tr '\n' ' ')"
	fi
}

main() {
	local t start why
	[[ -x $ROOT/decoder/fgdecode && -f $ROOT/plugin/plugin_stackmap.so ]] ||
		{ echo "test_decode: build the decoder and the plugin first (make)"; exit 2; }
	start=$SECONDS
	"$ROOT/tests/arm64/build.sh" >"$TMP/build.log" 2>&1 || { tail -n 20 "$TMP/build.log"; echo "test_decode: tests/arm64/build.sh failed"; exit 1; }
	ARM64_SYSROOT=$("$ROOT/tests/kernels.sh" arm64-sysroot)
	export ARM64_SYSROOT
	echo "== arm64 build ready in $((SECONDS - start)) s: $(file -b "$ROOT/build/arm64/decoder/fgdecode" | cut -d, -f1-2)"

	for t in views kstack; do
		mkdir -p "$TMP/host-$t" "$TMP/arm64-$t"
		start=$SECONDS
		host cross_arch_decode "$TMP/host-$t" "$TRACES/$t.dat" - arm64/views.dat ||
			{ check "$t.dat" "a decode failed on the host"; continue; }
		arm64 cross_arch_decode "$TMP/arm64-$t" "$TRACES/$t.dat" - arm64/views.dat ||
			{ check "$t.dat" "a decode failed on arm64"; continue; }
		echo "== tests/fixtures/traces/$t.dat (x86-64): host and arm64 decodes in $((SECONDS - start)) s"
		compare "$t.dat: arm64 decode = x86-64 decode" "$TMP/host-$t" "$TMP/arm64-$t"
	done

	mkdir -p "$TMP/arm64-fixture" "$TMP/committed"
	start=$SECONDS
	if arm64 cross_arch_decode "$TMP/arm64-fixture" "$TRACES/arm64/views.dat" views.stack_map.txt ../views.dat; then
		for t in "$TRACES"/arm64/decode/*; do
			case $t in
			*/BUILD) ;;
			*.xz) xz -dc "$t" >"$TMP/committed/$(basename "$t" .xz)" ;;
			*) cp "$t" "$TMP/committed/" ;;
			esac
		done
		echo "== tests/fixtures/traces/arm64/views.dat: arm64 decode in $((SECONDS - start)) s, against decode/ ($(sed -n 's/^tree: //p' "$TRACES/arm64/decode/BUILD"))"
		compare "arm64 fixture: this build = the committed arm64 decode" "$TMP/committed" "$TMP/arm64-fixture"
	else
		check "arm64 fixture" "a decode failed on arm64"
	fi
	dwarf
	check_summary decoder-arm64
}

main "$@"
