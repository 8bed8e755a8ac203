#!/bin/bash
# Cross-architecture decoding (issue #39 item 3), with nothing of arm64's toolchain: the arm64 fixture
# tests/fixtures/traces/arm64/views.dat (recorded by the module on Debian's 6.12 arm64 kernel under
# qemu-system-aarch64, with the kallsyms trace-cmd stores) read on this host by its own fgdecode, plugin and
# trace-cmd:
#   stack_map  fgdecode's stacks are the arm64 guest's own: its stack_map listing (views.stack_map.txt, symbols
#              as the guest kernel's %pS printed them), address for address and name for name
#              (tests/vm/check_e2e.awk)
#   NAME       each decode of tests/decoder/cross_arch_lib.sh (every output of fgdecode, map and diff included,
#              and trace-cmd report with the plugin) is byte for byte the arm64 build's decode of the same, run
#              under qemu-user and committed in tests/fixtures/traces/arm64/decode/ (tests/arm64/decode-fixture.sh;
#              its BUILD says which build made it); stderr, every decode's standard error, too
#   pprof-raw  go tool pprof -raw reads each pprof profile of both sides alike (the bytes are compared above,
#              gzip header included: fgdecode writes no time or name into it)
#   trace-cmd-report  trace-cmd report with the plugin agrees with fgdecode: every cookie resolved, the event
#              lines equal with plugins and with -N, every stack equal (tests/decoder/check_traces.sh, with the
#              plain decoder/fgdecode for speed: decoder-identity runs ASan's on the x86-64 fixtures)
# Nothing is normalised: every decode runs in the trace's directory on its base name, so a flame graph's title
# or a profile's mapping holds no path of either machine, and no output names the build that made it.
# Usage: tests/decoder/test_cross_arch.sh   (after make decoder plugin record and make -C tests/decoder)
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURE=$ROOT/tests/fixtures/traces/arm64
DECODE=$FIXTURE/decode
# shellcheck source=tests/decoder/cross_arch_lib.sh
. "$ROOT/tests/decoder/cross_arch_lib.sh"
# shellcheck source=tests/decoder/check_lib.sh
. "$ROOT/tests/decoder/check_lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# arm64 NAME: the arm64 decode NAME, as written.
arm64() {
	if [[ -f $DECODE/$1.xz ]]; then xz -dc "$DECODE/$1.xz"; else cat "$DECODE/$1"; fi
}

# differ NAME: why the host's decode NAME is not the arm64 one (nothing when it is).
differ() {
	local name=$1 d
	[[ -f $DECODE/$name || -f $DECODE/$name.xz ]] || { echo "no arm64 decode (tests/arm64/decode-fixture.sh)"; return; }
	arm64 "$name" >"$TMP/arm64.$name"
	cmp -s "$TMP/arm64.$name" "$TMP/host/$name" && return
	if [[ $name == *pprof ]]; then
		echo "bytes differ ($(cmp "$TMP/arm64.$name" "$TMP/host/$name" 2>&1 | head -n 1))"
	else
		d=$(diff "$TMP/arm64.$name" "$TMP/host/$name" | head -n 3 | tr '\n' ' ')
		echo "$(diff "$TMP/arm64.$name" "$TMP/host/$name" | grep -c '^[<>]') lines differ (< arm64, > host): $d"
	fi
}

main() {
	local name why n
	[[ -x $ROOT/decoder/fgdecode && -f $ROOT/plugin/plugin_stackmap.so ]] ||
		{ echo "test_cross_arch: build the decoder and the plugin first (make)"; exit 2; }
	echo "== ${FIXTURE#"$ROOT"/}/views.dat on $(uname -m); the arm64 decode: $(sed -n 's/^tree: //p' "$DECODE/BUILD"), $(sed -n 's/^fgdecode: //p' "$DECODE/BUILD" | cut -d, -f1)"

	"$ROOT/decoder/fgdecode" --no-summary --cookies "$FIXTURE/views.dat" >"$TMP/cookies.txt" 2>/dev/null
	why=""
	gawk -f "$ROOT/tests/vm/check_e2e.awk" "$FIXTURE/views.stack_map.txt" "$TMP/cookies.txt" >"$TMP/e2e" 2>&1 ||
		why=$(tail -n 3 "$TMP/e2e" | tr '\n' ' ')
	check stack_map "$why"
	sed 's/^/   /' "$TMP/e2e"

	mkdir -p "$TMP/host"
	export CROSS_ARCH_FGDECODE=$ROOT/decoder/fgdecode CROSS_ARCH_TRACECMD=trace-cmd CROSS_ARCH_PLUGIN_DIR=$ROOT/plugin
	cross_arch_decode "$TMP/host" "$FIXTURE/views.dat" views.stack_map.txt ../views.dat ||
		{ check decodes "a decode failed on this host (above)"; check_summary cross-arch; exit 1; }
	n=0
	for name in $(awk 'NF { print $1 }' <<<"$CROSS_ARCH_DECODES") stderr; do
		why=$(differ "$name")
		check "$name" "$why${why:+; an output changed on purpose: tests/arm64/decode-fixture.sh writes the arm64 decode again}"
		n=$((n + 1))
	done
	echo "   $n outputs compared, $(cat "$TMP"/host/* | wc -c) bytes"

	for name in pprof offcpu-pprof; do
		why=""
		go tool pprof -raw "$TMP/arm64.$name" >"$TMP/arm64.$name.raw" 2>"$TMP/err" || why="go tool pprof -raw on the arm64 profile: $(tail -n 1 "$TMP/err")"
		go tool pprof -raw "$TMP/host/$name" >"$TMP/host.$name.raw" 2>"$TMP/err" || why="go tool pprof -raw on the host's profile: $(tail -n 1 "$TMP/err")"
		[[ -n $why ]] || cmp -s "$TMP/arm64.$name.raw" "$TMP/host.$name.raw" || why="go tool pprof -raw differs"
		[[ -n $why || -s $TMP/host.$name.raw ]] || why="go tool pprof -raw printed nothing"
		check "pprof-raw $name" "$why"
	done

	why=""
	FGDECODE_SAN=$ROOT/decoder/fgdecode "$ROOT/tests/decoder/check_traces.sh" "$FIXTURE/views.dat" >"$TMP/report" 2>&1 ||
		why=$(grep -m 3 -E '^FAIL|^check_[a-z]*: ' "$TMP/report" | tr '\n' ' ')
	check trace-cmd-report "$why"
	sed 's/^/   /' "$TMP/report"

	check_summary cross-arch
}

main "$@"
