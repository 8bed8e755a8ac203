#!/bin/bash
# fgdecode's event lines are trace-cmd report's, byte for byte, on real
# recordings: with the libtraceevent plugins loaded as trace-cmd report
# loads them (the default of both), and with none (-N on both).  Stack lines
# differ by design and are left out on both sides: fgdecode's "    => ",
# "    <cookie ...>", "    <orphan ...>", "    <fallback ...>" and
# "    <no stack: ...>" lines, the stackmap events' lines (fgdecode expands
# them) and ftrace kernel_stack lines with their "=> " frames (fgdecode
# prints those under their event; trace-cmd report -N prints them
# tab-indented).
# Every other line, the "cpus=N" header and "[N EVENTS DROPPED]" included,
# must be equal.  Uses the ASan/UBSan build (tests/decoder/fgdecode_san).
# Usage: test_identity.sh TRACE.dat...   (tests/run-tests.sh gives the
# recordings of the vm-e2e@6.1 suite: sched_switch with cookies; sched,
# kmem, irq and function events with cookies on sched_switch and kmalloc;
# the same with -O stacktrace)
# FGDECODE_SAN=PROGRAM checks another build in its place, as in
# test_pprof.sh (tests/decoder/test_cross_arch.sh: decoder/fgdecode, about
# eight times as fast as ASan's with full unwinding on its trace).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=${FGDECODE_SAN:-$ROOT/tests/decoder/fgdecode_san}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/decoder/check_lib.sh
. "$ROOT/tests/decoder/check_lib.sh"
CHANGED=0
# libtracecmd's own leaks are suppressed; full unwinding so that the
# suppressions see its frames.
export ASAN_OPTIONS="exitcode=90:fast_unwind_on_malloc=0" UBSAN_OPTIONS="exitcode=91:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$ROOT/tests/decoder/libtracecmd.supp"
# The plugins of the system directory only, for both tools.
unset TRACEEVENT_PLUGIN_DIR

STACK_EVENT=': (stack_cookie|stack_define|stack_fallback|kernel_stack): '

fg_events() {
	grep -v -E '^    (=> |<cookie |<orphan |<fallback |<no stack: )' | grep -v -E "$STACK_EVENT"
}

report_events() {
	grep -v -E "$STACK_EVENT" | grep -v -E '^[[:space:]]*=> '
}

# compare NAME TRACE FLAGS: fgdecode FLAGS against trace-cmd report FLAGS.
compare() {
	local name=$1 trace=$2 flags=$3 why="" n
	"$FG" --no-summary $flags "$trace" >"$TMP/fg" 2>"$TMP/fg.err" || why="fgdecode exited $?: $(head -1 "$TMP/fg.err")"
	trace-cmd report $flags -i "$trace" >"$TMP/report" 2>/dev/null || why="trace-cmd report exited $?"
	fg_events <"$TMP/fg" >"$TMP/fg.events"
	report_events <"$TMP/report" >"$TMP/report.events"
	n=$(wc -l <"$TMP/report.events")
	if [[ -z $why ]] && ! cmp -s "$TMP/fg.events" "$TMP/report.events"; then
		why="event lines differ (< trace-cmd report, > fgdecode): $(diff "$TMP/report.events" "$TMP/fg.events" | head -3 | tr '\n' ' ')"
	fi
	((n > 1)) || why="no event lines to compare"
	check "$name" "$why" "$n lines identical"
}

main() {
	local t events n
	(($#)) || { echo "usage: test_identity.sh TRACE.dat..."; exit 2; }
	[[ -x $FG ]] || { echo "test_identity: build tests/decoder first (make -C tests/decoder)"; exit 2; }
	for t in "$@"; do
		[[ -f $t ]] || { echo "test_identity: no real trace at $t (run tests/run-tests.sh vm-e2e@6.1)"; exit 2; }
		events=$(trace-cmd report -N -i "$t" 2>/dev/null |
			awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z0-9_]+:$/ && $(i - 1) ~ /^[0-9.]+:$/) { sub(/:$/, "", $i); n[$i]++ } }
			     END { for (e in n) printf "%s ", e }')
		echo "== ${t#"$ROOT"/}: $(wc -w <<<"$events") kinds of events: $events"
		compare "${t##*/} with plugins" "$t" ""
		cp "$TMP/fg.events" "$TMP/plugins.events"
		compare "${t##*/} -N" "$t" "-N"
		n=$(diff "$TMP/plugins.events" "$TMP/fg.events" | grep -c '^<')
		echo "   the plugins change $n of its event lines"
		CHANGED=$((CHANGED + n))
	done
	# Else no plugin was loaded, and the test proved nothing.
	((CHANGED > 0)) || check plugins "fgdecode printed the same text with and without them"
	check_summary identity
}

main "$@"
