#!/bin/bash
# stackmap-snapshot and the plugin on a real trace.dat (TRACE, default the
# recorded tests/vm/sample/trace.dat with its stack_map listing LISTING):
#  1. the snapshot is written, read back with the listing's values, and
#     stock trace-cmd report (unchanged output), dump and convert (snapshot
#     kept) accept the file; a version 6 file is refused and left unchanged;
#  2. with the stack_define events filtered out of the report and scan=0,
#     the plugin resolves every cookie from the snapshot (found via -i FILE,
#     -iFILE, a positional FILE, ./trace.dat, or -O stackmap:file=) to the
#     stack the definitions give, and prints
#     "unknown" markers with -O stackmap:snapshot=0; with scan (the default)
#     it reads those definitions from the file instead and every cookie
#     resolves; with the definitions'
#     lines dropped after the report instead (plugin_stackmap.7's way on a
#     stock trace), every cookie still resolves;
#  3. the addr, compact and defs options change exactly what they promise.
# Usage: tests/plugin/test_tracedat.sh [TRACE.dat LISTING]  (after make -C plugin)
# "COND && ok || bad MSG": ok only counts and never fails.
# shellcheck disable=SC2015
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=${1:-$ROOT/tests/vm/sample/trace.dat}
LISTING=${2:-$ROOT/tests/vm/sample/stack_map.txt}
SNAP=$ROOT/record/stackmap-snapshot
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0 PASSES=0
export TRACEEVENT_PLUGIN_DIR=$ROOT/plugin

ok() { PASSES=$((PASSES + 1)); }
bad() { echo "test_tracedat: FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
expect() { if [[ $2 == "$3" ]]; then ok; else bad "$1: want [$2] got [$3]"; fi; }
stacks() { grep -c '^=> ' "$1"; }

T=$TMP/snap.dat
cp "$SRC" "$T"
# A trace recorded through the front end has one already; the one appended
# here then comes last, and the last one wins.
HAD_SNAPSHOT=0
"$SNAP" show "$SRC" >/dev/null 2>&1 && HAD_SNAPSHOT=1
gen=$(awk 'NR == 1 { print $3 }' "$LISTING")
nr=$(grep -c '^slot ' "$LISTING")
hits=$(awk '$1 == "slot" { h += $6 } END { print h + 0 }' "$LISTING")

# 1. Writing, reading back, stock tools.
"$SNAP" write "$T" "$LISTING" >"$TMP/out" 2>&1 || bad "write: $(cat "$TMP/out")"
expect "show" "generation $gen entries $nr hits $hits" "$("$SNAP" show "$T" | head -n1)"
env -u TRACEEVENT_PLUGIN_DIR trace-cmd report -i "$SRC" >"$TMP/r0" 2>&1
env -u TRACEEVENT_PLUGIN_DIR trace-cmd report -i "$T" >"$TMP/r1" 2>&1
expect "stock report exit" 0 $?
cmp -s "$TMP/r0" "$TMP/r1" && ok || bad "stock report output changed by the snapshot"
trace-cmd dump --options -i "$T" >"$TMP/dump" 2>&1
expect "dump exit" 0 $?
grep -q "^ $((0x5354)) [0-9]*	\[Unknown option" "$TMP/dump" && ok || bad "dump does not list option $((0x5354))"
trace-cmd dump -i "$T" >/dev/null 2>&1
expect "full dump exit" 0 $?
trace-cmd convert -i "$T" -o "$TMP/conv.dat" >/dev/null 2>&1
expect "convert exit" 0 $?
expect "snapshot kept by convert" "generation $gen entries $nr hits $hits" "$("$SNAP" show "$TMP/conv.dat" | head -n1)"
if [[ $HAD_SNAPSHOT == 0 ]]; then
	"$SNAP" show "$SRC" >/dev/null 2>"$TMP/err"
	expect "no snapshot exit" 1 $?
	grep -q 'no stackmap snapshot option' "$TMP/err" && ok || bad "no snapshot message: $(cat "$TMP/err")"
fi
"$SNAP" write "$T" /dev/null >/dev/null 2>"$TMP/err"
expect "empty listing exit" 1 $?
expect "empty listing message" "stackmap-snapshot: /dev/null: empty listing" "$(cat "$TMP/err")"

# A version 6 file is refused, and left unchanged.
trace-cmd convert --file-version 6 -i "$SRC" -o "$TMP/v6.dat" >/dev/null 2>&1 || bad "convert to v6"
cp "$TMP/v6.dat" "$TMP/v6.orig"
"$SNAP" write "$TMP/v6.dat" "$LISTING" >/dev/null 2>"$TMP/err"
expect "v6 write exit" 1 $?
grep -q 'v6.dat: file version 6 keeps its options before the data' "$TMP/err" && ok || bad "v6 message: $(cat "$TMP/err")"
cmp -s "$TMP/v6.dat" "$TMP/v6.orig" && ok || bad "v6 file modified"
"$SNAP" show "$TMP/v6.dat" >/dev/null 2>&1
expect "v6 show exit" 1 $?

# 2. Snapshot resolution (scan=0: not from the definitions the report leaves
# out, which the plugin otherwise reads from the file), then the scan's.
# Reference: every stack the definitions give.
NOSCAN=(-O stackmap:scan=0)
trace-cmd report -i "$T" 2>/dev/null | grep -v ': stack_define: ' >"$TMP/full"
nfull=$(stacks "$TMP/full")
[[ $nfull -gt 0 ]] && ok || bad "no stacks in the reference report"
# plugin_stackmap.7's way to hide the definitions on a stock trace: every cookie still resolves.
expect "report | grep -v stack_define: no unknown cookie" 0 "$(grep -c '^=> <unknown cookie' "$TMP/full")"
expect "report | grep -v stack_define: no definition line" 0 "$(grep -c 'stack_define' "$TMP/full")"
(cd "$TMP" && trace-cmd report -v -F stack_define "${NOSCAN[@]}" -i snap.dat 2>/dev/null) >"$TMP/nodefs"
cmp -s "$TMP/full" "$TMP/nodefs" && ok || bad "stacks from the snapshot (-i) differ from the definitions'"
(cd "$TMP" && cp snap.dat trace.dat && trace-cmd report -v -F stack_define "${NOSCAN[@]}" 2>/dev/null) >"$TMP/nodefs2"
cmp -s "$TMP/full" "$TMP/nodefs2" && ok || bad "stacks from the snapshot (./trace.dat) differ"
mkdir "$TMP/empty"
(cd "$TMP/empty" && trace-cmd report -v -F stack_define "${NOSCAN[@]}" ../snap.dat 2>/dev/null) >"$TMP/nodefs4"
cmp -s "$TMP/full" "$TMP/nodefs4" && ok || bad "stacks from the snapshot (positional FILE) differ"
(cd "$TMP/empty" && trace-cmd report -v -F stack_define "${NOSCAN[@]}" -i../snap.dat 2>/dev/null) >"$TMP/nodefs5"
cmp -s "$TMP/full" "$TMP/nodefs5" && ok || bad "stacks from the snapshot (-iFILE) differ"
(cd "$TMP" && trace-cmd report -i snap.dat -v -F stack_define -i snap.dat -F stack_define 2>/dev/null) >"$TMP/two"
expect "two -i: no snapshot nor definitions looked for, every cookie unknown" "$((2 * $(grep -c ': stack_cookie: ' "$TMP/full")))" \
	"$(grep -c '^=> <unknown cookie gen' "$TMP/two")"
# trace-cmd cuts "-O NAME=VALUE" at its '=' in its argv: the command line then reads "-O NAME VALUE".
(cd "$TMP/empty" && trace-cmd report -O stackmap:addr=0 -v -F stack_define "${NOSCAN[@]}" -i ../snap.dat 2>/dev/null) \
	>"$TMP/nodefs6"
expect "-O NAME=VALUE before -i: no unknown cookie" 0 "$(grep -c '^=> <unknown cookie' "$TMP/nodefs6")"
expect "-O NAME=VALUE before -i: every stack" "$nfull" "$(stacks "$TMP/nodefs6")"
trace-cmd report -v -F stack_define "${NOSCAN[@]}" -O stackmap:file="$T" -i "$SRC" 2>/dev/null >"$TMP/nodefs3"
cmp -s "$TMP/full" "$TMP/nodefs3" && ok || bad "stacks from the snapshot (file=) differ"
trace-cmd report -v -F stack_define "${NOSCAN[@]}" -O stackmap:snapshot=0 -i "$T" 2>/dev/null >"$TMP/nosnap"
ncookies=$(grep -c ': stack_cookie: ' "$TMP/full")
expect "snapshot=0 scan=0: every cookie unknown" "$ncookies" "$(grep -c '^=> <unknown cookie gen' "$TMP/nosnap")"
# With scan (the default) the definitions the report leaves out are read from the file: every cookie resolves.
trace-cmd report -v -F stack_define -O stackmap:snapshot=0 -i "$T" 2>/dev/null >"$TMP/scan"
cmp -s "$TMP/full" "$TMP/scan" && ok || bad "stacks from the file's definitions (scan, snapshot=0) differ"
(cd "$TMP/empty" && trace-cmd report -v -F stack_define -O stackmap:snapshot=0 ../snap.dat 2>/dev/null) >"$TMP/scan2"
cmp -s "$TMP/full" "$TMP/scan2" && ok || bad "stacks from the file's definitions (positional FILE) differ"
trace-cmd report -v -F stack_define -O stackmap:file=/nonexistent.dat -i "$T" 2>"$TMP/err" >/dev/null
grep -q '^plugin_stackmap: /nonexistent.dat: No such file' "$TMP/err" && ok || bad "file= error: $(head -c 300 "$TMP/err")"

# 3. Options.
trace-cmd report -O stackmap:addr=0 -i "$T" 2>/dev/null >"$TMP/noaddr"
expect "addr=0 same frame count" "$nfull" "$(grep -v ': stack_define: ' "$TMP/noaddr" | grep -c '^=> ')"
grep -q '^=> [^ ]*+0x[0-9a-f]*/0x[0-9a-f]*$' "$TMP/noaddr" || bad "addr=0: no symbol+0xoff/0xsize frame"
grep -q ' ([0-9a-f]*)$' "$TMP/noaddr" && bad "addr=0 still prints addresses" || ok
trace-cmd report -O stackmap:compact=1 -i "$T" 2>/dev/null >"$TMP/compact"
expect "compact: no frame lines" 0 "$(grep -c '^=> ' "$TMP/compact")"
expect "compact: same line count as stock" "$(wc -l <"$TMP/r1")" "$(wc -l <"$TMP/compact")"
first=$(grep -m1 -A3 ': stack_cookie: ' "$TMP/full" | tail -n 3 | paste -sd' ')
grep -m1 ': stack_cookie: ' "$TMP/compact" | grep -qF " $first" && ok || bad "compact line lacks [$first]"
trace-cmd report -O stackmap:defs=1 -i "$T" 2>/dev/null >"$TMP/defs"
ndefs=$(gawk '/: stack_define: / && match($0, / depth ([0-9]+)/, m) { d += m[1] } END { print d + 0 }' "$TMP/defs")
expect "defs=1 prints each definition's frames" "$((nfull + ndefs))" "$(stacks "$TMP/defs")"

echo "test_tracedat: $PASSES passed, $FAILS failed"
((FAILS == 0))
