#!/bin/bash
# Cross-check fgdecode and the trace-cmd plugin on a real trace.dat:
#  1. `fgdecode -N`'s event lines (stack lines and stackmap events left out)
#     are exactly `trace-cmd report -N`'s (stackmap events left out); with
#     plugins, on both sides, tests/decoder/test_identity.sh checks them;
#  2. every stack fgdecode prints under an event is the stack
#     `TRACEEVENT_PLUGIN_DIR=plugin trace-cmd report` prints for the
#     stack_cookie / stack_fallback that follows that event on its CPU and
#     names its event as owner, from the same task.
#     The plugin reads the definitions that come later in the file too
#     (plugin_scan.c), as fgdecode does: a cookie fgdecode resolves and the
#     plugin calls unknown differs.  A cookie both leave unresolved, one
#     calling it stale and the other unknown, is counted, not failed (the
#     plugin also knows the slots of the map snapshot stored in the trace).
#     Orphan stacks (their owner is not the event before them; both tools
#     head them with "<orphan stack of OWNER>") belong to no event and are
#     left out on both sides.
# Usage: tests/plugin/check_report.sh TRACE.dat   (after make -C decoder and
# make -C plugin).  Exit 0 when both hold, 1 otherwise, 2 on usage errors.
# FGDECODE and PLUGIN_DIR (default the tree's decoder/fgdecode and plugin/)
# check other builds of them (tests/test_deb.sh: the packaged ones).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TRACE=${1:?usage: $0 TRACE.dat}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "check_report: $*" >&2
	exit 1
}

FGDECODE=${FGDECODE:-$ROOT/decoder/fgdecode}
PLUGIN_DIR=${PLUGIN_DIR:-$ROOT/plugin}
[[ -x $FGDECODE ]] || { echo "check_report: no $FGDECODE (build decoder/ first)" >&2; exit 2; }
[[ -f $PLUGIN_DIR/plugin_stackmap.so ]] || { echo "check_report: no $PLUGIN_DIR/plugin_stackmap.so (build plugin/ first)" >&2; exit 2; }

"$FGDECODE" --no-summary -N "$TRACE" >"$TMP/fg" || fail "fgdecode exited $?"
trace-cmd report -N -i "$TRACE" >"$TMP/report" 2>/dev/null || fail "trace-cmd report -N failed"
TRACEEVENT_PLUGIN_DIR=$PLUGIN_DIR trace-cmd report -i "$TRACE" >"$TMP/plugin" 2>/dev/null ||
	fail "trace-cmd report with the plugin failed"

# 1. Event lines.
STACKMAP_LINE=': stack_(cookie|define|fallback): '
grep -v -E "^    (=> |<cookie |<orphan |<fallback |<no stack: )" "$TMP/fg" | grep -v -E "$STACKMAP_LINE" >"$TMP/fg.events" || true
grep -v -E "$STACKMAP_LINE" "$TMP/report" >"$TMP/report.events" || true
if ! cmp -s "$TMP/fg.events" "$TMP/report.events"; then
	diff "$TMP/report.events" "$TMP/fg.events" | head -n 20 >&2
	fail "fgdecode -N event lines differ from trace-cmd report -N (diff above: < report, > fgdecode)"
fi

# 2. Stacks, keyed by "cpu ts event #n" of the event they belong to.
gawk '
# "[CPU] TIME: EVENT:", the latency flags between (trace-cmd 3.3+: "[000] d..2.").
function head(line, m) {
	if (!match(line, /\[([0-9]+)\]( [^ ]+)? +([0-9]+\.[0-9]+): ([A-Za-z0-9_]+):/, m))
		return ""
	cpu = m[1] + 0
	key = cpu " " m[3] " " m[4]
	return key " #" (++seen[FILENAME, key])
}
FNR == 1 { cur = ""; delete last }
# fgdecode output: event lines, then "    => " stack lines.
FILENAME == ARGV[1] {
	# the plugin cannot name modules (no libtraceevent API): compare without;
	# nor size a symbol that shares its address with another (libtraceevent
	# gives it size 0, RT stacks end at __x86_indirect_thunk_rax+0x0): at a
	# the start of a symbol (+0x0) the size is compared without
	if ($0 ~ /^    => /) { fgframes += !in_orphan; if (cur == "") next; l = substr($0, 5); sub(/ \[[^]]+\] \(/, " (", l)
		sub(/\+0x0\/0x[0-9a-f]+ \(/, "+0x0 (", l); fg[cur] = fg[cur] "\n" l; next }
	if ($0 ~ /^ {4}<cookie /) next
	# an orphan: its frames belong to no event
	if ($0 ~ /^ {4}<orphan /) { delete fg[cur]; cur = ""; in_orphan = 1; next }
	if ($0 !~ /^    (=> |<)/) in_orphan = 0
	k = head($0)
	if (k != "") cur = k
	next
}
# plugin output: a stack_cookie/stack_fallback line naming its owner starts
# the stack of the newest event on its CPU of that owner and the same task
# not given a stack yet (events.h: another task may run between an event and
# its stack record where probes are preemptible); one naming no owner (an
# unresolved cookie) that of the last other event on its CPU (or its own, if
# none).
# The events waiting for a stack record, per (CPU, event, task) O: a stack,
# nopen[O] of them, openk[O, 1..nopen[O]], the newest last (arrays, not a
# string: a trace of a million events without their stack records must not
# cost a copy of the whole list per event).
function push_open(o, k) {
	openk[o, ++nopen[o]] = k
}
function pop_open(o,   k) {
	k = openk[o, nopen[o]]
	delete openk[o, nopen[o]--]
	return k
}
# drop_open(O, K): K, when it is the newest event waiting in O, waits no more (1 if it did).
function drop_open(o, k) {
	if (!nopen[o] || openk[o, nopen[o]] != k)
		return 0
	pop_open(o)
	return 1
}
function pid_of(line, m) {
	return match(line, /-([0-9]+) +\[[0-9]+\]/, m) ? m[1] : ""
}
{
	if ($0 ~ /^=> /) { if (cur != "") { l = $0; sub(/\+0x0\/0x[0-9a-f]+ \(/, "+0x0 (", l); pl[cur] = pl[cur] "\n" l }; next }
	# an orphan: give the event back what the stack record line took
	if ($0 ~ /^<orphan /) {
		if (cur != "") delete pl[cur]
		if (from != "") push_open(from, cur)
		else if (had_last) {
			last[ocpu] = olast
			if (dropped) push_open(dropped_o, olast)
		}
		cur = ""
		next
	}
	if (match($0, /^CPU:([0-9]+) \[/, m)) {
		delete last[m[1] + 0]
		for (o in nopen) {
			split(o, p, SUBSEP)
			if (p[1] != m[1] + 0) continue
			while (nopen[o]) pop_open(o)
			delete nopen[o]
		}
		next
	}
	k = head($0)
	if (k == "") next
	if ($0 ~ /: stack_define: /) { cur = ""; next }
	if ($0 ~ /: stack_(cookie|fallback): /) {
		from = ""
		if (match($0, / owner [^ :]+:([^ ]+)/, m) && nopen[cpu, m[1], pid_of($0)] > 0) {
			from = cpu SUBSEP m[1] SUBSEP pid_of($0)
			cur = pop_open(from)
			if (last[cpu] == cur) delete last[cpu]
		} else {
			cur = (cpu in last) ? last[cpu] : k
			had_last = cpu in last; olast = last[cpu]; ocpu = cpu
			# that event has its stack now: no owned record may take it
			dropped = had_last && drop_open(dropped_o = lastopen[cpu], cur)
			delete last[cpu]
		}
		pl[cur] = ""
		next
	}
	last[cpu] = k
	match($0, /: ([A-Za-z0-9_]+):/, m)
	push_open(cpu SUBSEP m[1] SUBSEP pid_of($0), k)
	lastopen[cpu] = cpu SUBSEP m[1] SUBSEP pid_of($0)
	cur = ""
}
END {
	for (k in fg) {
		if (fg[k] == "") continue
		n++
		if (!(k in pl)) { bad++; if (bad < 5) print "no plugin stack for " k > "/dev/stderr"; continue }
		if (pl[k] == fg[k]) { same++; continue }
		# Unresolved in both, for the same cookie: stale in one and unknown
		# in the other when only the plugin knows the slots of the snapshot.
		if (match(pl[k], /^\n=> <(stale|unknown) cookie (gen [0-9]+ slot [0-9]+)>$/, a) &&
		    match(fg[k], /^\n=> <(stale|unknown) cookie (gen [0-9]+ slot [0-9]+)>$/, b) &&
		    a[2] == b[2]) { unres++; continue }
		bad++
		if (bad < 5) print "stack of " k " differs:\nfgdecode:" fg[k] "\nplugin:" pl[k] > "/dev/stderr"
	}
	printf "check_report: %d stacks: %d identical, %d unresolved in both, %d differ\n", n, same, unres, bad
	# Frames under events but no stack compared: the event lines were not recognized.
	if (fgframes > 0 && n == 0) { print "check_report: fgdecode printed " fgframes " frames, none under an event line read here" > "/dev/stderr"; exit 1 }
	exit bad != 0
}' "$TMP/fg" "$TMP/plugin" || fail "plugin and fgdecode stacks differ"
echo "check_report: ok"
