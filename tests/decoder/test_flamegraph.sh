#!/bin/bash
# fgdecode --flamegraph in a real browser: the SVG of a real recording, made
# by the ASan/UBSan build (tests/decoder/fgdecode_san), is loaded in headless
# Chromium, and flamegraph_browser.py clicks a frame and searches, checking
# the result against fgdecode --folded of the same trace (see that script).
# The screenshots it takes are kept in build/flamegraph/ (flamegraph.png is
# the one the README shows). A file that cannot be written is an error.
# With --off-cpu --task-root, the root frame weighs the nanoseconds
# fgdecode --top reports, and the task and state frames are drawn.  The
# differential graph of fgdecode diff TRACE FIXTURE (FIXTURE:
# tests/fixtures/traces/views.dat, same kernel): its root weighs the new
# total with the base total beside it, as the diff's summary says, and it
# has red (grown) and blue (shrunk) frames.
# Usage: test_flamegraph.sh [TRACE.dat]   (default: build/vm-e2e-6.1/trace.dat,
# which the vm-e2e@6.1 suite leaves behind)
# FGDECODE_SAN=PROGRAM tests another build of fgdecode_san in its place
# (tests/test_userland.sh: the one built in a trixie root).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=${FGDECODE_SAN:-$ROOT/tests/decoder/fgdecode_san}
TRACE=${1:-$ROOT/build/vm-e2e-6.1/trace.dat}
OUT=$ROOT/build/flamegraph
export ASAN_OPTIONS="exitcode=90" UBSAN_OPTIONS="exitcode=91:print_stacktrace=1"

main() {
	local rc want got
	[[ -x $FG ]] || { echo "test_flamegraph: build tests/decoder first (make -C tests/decoder)"; exit 2; }
	[[ -f $TRACE ]] || { echo "test_flamegraph: no real trace at $TRACE (run tests/run-tests.sh vm-e2e@6.1)"; exit 2; }
	command -v chromium >/dev/null || { echo "test_flamegraph: chromium is missing (apt-get install chromium)"; exit 2; }
	mkdir -p "$OUT" || exit 2
	"$FG" --no-summary --flamegraph "$OUT/flamegraph.svg" "$TRACE" || { echo "test_flamegraph: fgdecode --flamegraph failed"; exit 1; }
	"$FG" --no-summary --folded "$TRACE" >"$OUT/folded.txt" || exit 1
	python3 "$ROOT/tests/decoder/flamegraph_browser.py" "$OUT/flamegraph.svg" "$OUT/folded.txt" "$OUT"
	rc=$?
	"$FG" --no-summary --flamegraph /nonexistent/dir/x.svg "$TRACE" 2>"$OUT/err"
	if [[ $? == 1 && $(wc -l <"$OUT/err") == 1 ]] && grep -q '^fgdecode: /nonexistent/dir/x.svg: ' "$OUT/err"; then
		echo "PASS unwritable file (exit 1, one line)"
	else
		echo "FAIL unwritable file: $(head -1 "$OUT/err")"
		rc=1
	fi
	"$FG" --no-summary --off-cpu --task-root --flamegraph "$OUT/offcpu.svg" "$TRACE" || exit 1
	want=$("$FG" --no-summary --off-cpu --top 1 "$TRACE" | sed -n 's/.* (\([0-9]*\) ns) in all$/\1/p')
	# The tooltip gives the time for people, the ns in parentheses: "all: 488.4 ms (488365061 ns), ...".
	got=$(grep -o 'data-n="all"><title>all: [0-9.]* [mun]*s ([0-9]* ns)' "$OUT/offcpu.svg" | sed 's/.*(//; s/ ns)//')
	if [[ -n $want && $want == "$got" ]] && grep -q 'class="f label" data-x=[^>]* data-n="\[[A-Z+]*\]"' "$OUT/offcpu.svg"; then
		echo "PASS off-cpu ($got ns, task and state frames)"
	else
		echo "FAIL off-cpu: root weighs '$got' ns, fgdecode --top '$want', or no state frame"
		rc=1
	fi
	"$FG" diff --flamegraph "$OUT/diff.svg" "$TRACE" "$ROOT/tests/fixtures/traces/views.dat" 2>"$OUT/diff.err" || exit 1
	want=$(sed -n 's/.*; totals \([0-9]*\) -> \([0-9]*\)$/\2 \1/p' "$OUT/diff.err")
	got=$(grep -o 'data-n="all"><title>all: [0-9]* events, [0-9.]*% (base [0-9]*' "$OUT/diff.svg" |
		sed 's/.*all: \([0-9]*\) events.*(base \([0-9]*\)/\1 \2/')
	if [[ -n $want && $want == "$got" ]] && grep -q 'fill="rgb(255,[0-9]*,[0-9]*)"' "$OUT/diff.svg" &&
		grep -q 'fill="rgb([0-9]*,[0-9]*,255)"' "$OUT/diff.svg"; then
		echo "PASS diff (new and base totals $got, red and blue frames)"
	else
		echo "FAIL diff: root says '$got', the diff '$want', or no red or no blue frame"
		rc=1
	fi
	echo "flamegraph: screenshots in ${OUT#"$ROOT"/}/"
	return $rc
}

main "$@"
