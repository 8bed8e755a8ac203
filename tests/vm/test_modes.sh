#!/bin/bash
# Every recording mode a kernel engineer uses, with stock trace-cmd on the
# real kernel (guest/modes.sh records; this script checks on the host):
# filtered owner, attached event not recorded, owner in another instance,
# two concurrent recordings, a flight recorder (overwriting buffer, with and
# without re-definition; started first beside a streaming recording; its
# definitions pushed out by events without a stack), a reset mid-recording,
# truncated stacks.
#
# What every mode asserts: no stack is shown under an event it was not
# captured for (in --folded, each event's stacks end in the frame that
# event's tracepoint sits in: __schedule for sched_switch, try_to_wake_up
# for sched_waking; the others are orphans, named by their owner), and the
# resolved/unknown/orphan counts of fgdecode's summary; in the flight
# recorder, trace-cmd report with the plugin shows fgdecode's stacks
# (tests/plugin/check_report.sh). Prints one line per mode with the figures.
# Needs `make` (kmod/stackmap.ko, decoder/fgdecode, plugin/).
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# The kernel (STACKMAP_KERNEL, default the one kmod/stackmap.ko was built for): KO, VM_ARGS, OUT, KERNEL_LABEL.
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-modes}"
# Target for the flight recorder with stock trace-cmd (issue: >= 95 %).
MIN_FLIGHT_RESOLVED_PCT=95
# stackmap(7)'s promise at the default redefine_pct: a definition as old as that share of an overwriting buffer's
# window is written again (refreshed) if a cookie reused it, so every kept cookie finds a definition in the window,
# before or after it, as long as the window does not shrink below that share between two of its measurements (a
# TCG guest's event rate wavers by half over seconds, not within 16 cookies). LATE_PCT: how far into its CPU's
# window an unknown cookie may lie. 0: none but a CPU's first record may be unknown.
LATE_PCT=0

# decode_mode MODE FILE: summary, folded and --cookies text of one trace.
decode_mode() {
	local dir=$OUT/$1 base=${2%.dat}
	"$FGDECODE" "$dir/$2" >/dev/null 2>"$dir/$base.summary" ||
		fail "$1" "fgdecode $2 exited $? ($(head -n1 "$dir/$base.summary"))"
	"$FGDECODE" --folded --no-summary "$dir/$2" >"$dir/$base.folded" ||
		fail "$1" "fgdecode --folded $2 failed"
	"$FGDECODE" --cookies --no-summary "$dir/$2" >"$dir/$base.txt" ||
		fail "$1" "fgdecode --cookies $2 failed"
}

# owners_right MODE BASE: every folded stack ends where its event is traced;
# an orphan (root "[orphan OWNER]", OWNER "event id N" when the trace has no
# format for it) ends in one of the attached tracepoints' functions; an
# unresolved cookie ("EVENT;[unknown cookie]") shows no frames at all.
owners_right() {
	gawk '{ s = $0; sub(/ [0-9]+$/, "", s); n = split(s, f, ";"); root = f[1]; leaf = f[n]
		if (root == "sched_switch" || root == "[orphan sched:sched_switch]")
			ok = leaf == "__schedule"
		else if (root == "sched_waking" || root == "[orphan sched:sched_waking]")
			ok = leaf == "try_to_wake_up"
		else
			ok = root ~ /^\[orphan event id [0-9]+\]$/ && (leaf == "__schedule" || leaf == "try_to_wake_up")
		# An unresolved cookie shows no stack at all: nothing wrong is shown.
		if (n == 2 && leaf ~ /^\[(unknown|stale) cookie\]$/)
			ok = 1
		if (!ok) { print "stack " s " under " root; bad++ } }
		END { exit bad > 0 }' "$OUT/$1/$2.folded" | head -n 3 >"$OUT/$1/$2.wrong" || true
	[[ ! -s $OUT/$1/$2.wrong ]] || fail "$1" "a stack under the wrong event: $(head -n1 "$OUT/$1/$2.wrong")"
}

# roots MODE BASE: the distinct root frames of the folded output (lines are
# "root;...;leaf COUNT").
roots() {
	gawk '{ s = $0; sub(/ [0-9]+$/, "", s); split(s, f, ";"); r[f[1]] = 1 } END { for (k in r) print k }' "$OUT/$1/$2.folded" | sort | tr '\n' ' '
}

# counter MODE NAME: the module's counter NAME as its stats file read after MODE (stat_value, lib.sh).
counter() {
	stat_value "$2" "$OUT/$1/stats.txt"
}

figures() {
	local s=$OUT/$1/$2.summary
	echo "$(summary_count "$s" cookies) cookies, $(summary_count "$s" resolved) resolved," \
		"$(summary_count "$s" unknown) unknown, $(summary_count "$s" orphan) orphan"
}

# Every cookie an orphan of sched_switch; nothing under the recorded events.
check_all_orphans() {
	local mode=$1 s=$OUT/$1/trace.summary cookies
	decode_mode "$mode" trace.dat
	owners_right "$mode" trace
	cookies=$(summary_count "$s" cookies)
	((cookies > 100)) || fail "$mode" "only $cookies cookies recorded"
	(($(summary_count "$s" orphan) == cookies)) || fail "$mode" "not every cookie is an orphan: $(figures "$mode" trace)"
	[[ $(roots "$mode" trace) == "[orphan sched:sched_switch] " ]] ||
		fail "$mode" "stacks under events: roots $(roots "$mode" trace)"
	say "$mode: $(figures "$mode" trace); no stack under any recorded event"
}

check_unrecorded() {
	local s=$OUT/unrecorded/trace.summary orphans
	decode_mode unrecorded trace.dat
	owners_right unrecorded trace
	orphans=$(summary_count "$s" orphan)
	((orphans > 100)) || fail unrecorded "only $orphans orphans (sched_switch cookies): $(figures unrecorded trace)"
	(($(summary_count "$s" unknown) == 0)) || fail unrecorded "unknown cookies: $(figures unrecorded trace)"
	grep -q '^sched_waking;' "$OUT/unrecorded/trace.folded" || fail unrecorded "no sched_waking stacks"
	say "unrecorded: $(figures unrecorded trace); sched_waking stacks end in try_to_wake_up, sched_switch's are orphans"
}

# inner_orphans MODE BASE: orphans that are the first record of their CPU
# (of their buffer): the owning event fell on the other side of the moment
# tracing was switched on (its probe runs just before the cookie's), or on
# a page the buffer overwrote.  Prints how many orphans are NOT like that.
inner_orphans() {
	gawk '/\[[0-9]+\] +[0-9]+\.[0-9]+: / { match($0, /\[([0-9]+)\]/, m)
			buf = $0 ~ /^[^ ]+: / ? $1 : ""
			key = buf "/" m[1]; first = !(key in seen); seen[key] = 1; next }
		/<orphan / { if (!first) n++ }
		END { print n + 0 }' "$OUT/$1/$2.txt"
}

# All cookies resolved, none unknown, no orphan but at a CPU's first record.
check_complete() {
	local mode=$1 base=${2%.dat} s cookies orphans inner
	decode_mode "$mode" "$2"
	owners_right "$mode" "$base"
	s=$OUT/$mode/$base.summary
	cookies=$(summary_count "$s" cookies) orphans=$(summary_count "$s" orphan)
	inner=$(inner_orphans "$mode" "$base")
	((cookies > 100)) || fail "$mode" "$2: only $cookies cookies"
	(($(summary_count "$s" resolved) == cookies && $(summary_count "$s" unknown) == 0)) ||
		fail "$mode" "$2: $(figures "$mode" "$base")"
	((inner == 0)) || fail "$mode" "$2: $inner orphans inside the trace: $(figures "$mode" "$base")"
	say "$mode: $2: $(figures "$mode" "$base") (orphans only at a CPU's first record)"
}

check_flight() {
	local s=$OUT/flight/trace.summary s0=$OUT/flight0/trace.summary cookies resolved pct c0 r0 late
	decode_mode flight trace.dat
	owners_right flight trace
	decode_mode flight0 trace.dat
	cookies=$(summary_count "$s" cookies) resolved=$(summary_count "$s" resolved)
	c0=$(summary_count "$s0" cookies) r0=$(summary_count "$s0" resolved)
	((cookies > 300)) || fail flight "only $cookies cookies retained"
	grep -q '^overrun: [1-9]' <(trace-cmd report --stat "$OUT/flight/trace.dat" 2>/dev/null) ||
		fail flight "the buffer never overwrote: not a flight recorder test"
	pct=$((resolved * 100 / cookies))
	((pct >= MIN_FLIGHT_RESOLVED_PCT)) || fail flight "$resolved of $cookies cookies resolved (< $MIN_FLIGHT_RESOLVED_PCT %)"
	late=$(late_unknowns flight trace | wc -l)
	((late == 0)) ||
		fail flight "$late unknown cookies after the oldest $LATE_PCT % of their CPU's window (first: $(late_unknowns flight trace | head -n1))"
	# trace-cmd report with the plugin resolves what fgdecode does: a cookie whose definition before it left
	# the buffer finds one written again later (plugin_scan.c).
	"$ROOT/tests/plugin/check_report.sh" "$OUT/flight/trace.dat" >"$OUT/flight/report.txt" 2>&1 ||
		fail flight "trace-cmd report's stacks differ from fgdecode's: $(grep -m1 -v '^check_report: ok' \
			"$OUT/flight/report.txt")"
	say "flight: -b 64, overwritten: $resolved of $cookies retained cookies resolved ($pct %;" \
		"$(counter flight redefines) re-definitions, $(counter flight refreshes) refreshes" \
		"($(counter flight refresh_missed) missed, $(counter flight refresh_overflow) overflowed);" \
		"latest unknown cookie: $(latest_unknown flight trace));" \
		"with redefine_pct=0: $r0 of $c0; trace-cmd report:" \
		"$(sed -n 's/^check_report: \([0-9]* stacks: [0-9]* identical\).*/\1/p' "$OUT/flight/report.txt")"
	# The listing saved after the recording is one more definition source.
	"$FGDECODE" --stack-map "$OUT/flight0/stack_map.txt" "$OUT/flight0/trace.dat" >/dev/null \
		2>"$OUT/flight0/listing.summary" || fail flight "fgdecode --stack-map exited $?"
	(($(summary_count "$OUT/flight0/listing.summary" resolved) == c0)) ||
		fail flight "--stack-map: $(figures flight0 listing)"
	say "flight: redefine_pct=0 with --stack-map (the saved stack_map): $(figures flight0 listing)"
}

# unknown_positions MODE BASE: the unknown cookies of BASE's --cookies text,
# one line "CPU TIME PCT" each, PCT how far into its CPU's retained span
# (first to last record there) the cookie lies.
unknown_positions() {
	gawk '/\[[0-9]+\] +[0-9]+\.[0-9]+: / { match($0, /\[([0-9]+)\] +([0-9.]+):/, m); cpu = m[1] + 0; ts = m[2]
			if (!(cpu in first)) first[cpu] = ts
			last[cpu] = ts }
		/unknown cookie/ { u[++n] = cpu " " ts }
		END { for (i = 1; i <= n; i++) { split(u[i], f, " "); span = last[f[1]] - first[f[1]]
				printf "%s %.1f\n", u[i], (span > 0 ? (f[2] - first[f[1]]) * 100 / span : 0) } }' "$OUT/$1/$2.txt"
}

# late_unknowns MODE BASE: the unknown cookies after the oldest LATE_PCT %
# of their CPU's span: those the module promises a definition.
late_unknowns() {
	unknown_positions "$1" "$2" | gawk -v pct="$LATE_PCT" '$3 > pct'
}

# latest_unknown MODE BASE: how far into its CPU's span the latest unknown
# cookie lies ("none" without one): the margin left to LATE_PCT.
latest_unknown() {
	unknown_positions "$1" "$2" | gawk '$3 > max { max = $3 } END { print NR ? max " % into its CPU'"'"'s window" : "none" }'
}

# check_flight_like MODE WHAT: MODE's extracted flight recording overwrote,
# and every cookie after the oldest LATE_PCT % of its CPU's window has
# its definition there, as with a flight recorder alone.
check_flight_like() {
	local mode=$1 s=$OUT/$1/trace.summary cookies late
	decode_mode "$mode" trace.dat
	owners_right "$mode" trace
	cookies=$(summary_count "$s" cookies)
	((cookies > 300)) || fail "$mode" "only $cookies cookies retained"
	grep -q '^overrun: [1-9]' <(trace-cmd report --stat "$OUT/$mode/trace.dat" 2>/dev/null) ||
		fail "$mode" "the buffer never overwrote: not a flight recorder test"
	late=$(late_unknowns "$mode" trace | wc -l)
	((late == 0)) ||
		fail "$mode" "$late unknown cookies after the oldest $LATE_PCT % of their CPU's window (first: $(late_unknowns "$mode" trace | head -n1)): $2"
	say "$mode: $2: $(figures "$mode" trace), none unknown after the oldest $LATE_PCT % of a CPU's window" \
		"(latest unknown cookie: $(latest_unknown "$mode" trace));" \
		"$(counter "$mode" redefines) re-definitions, $(counter "$mode" refreshes) refreshes," \
		"$(counter "$mode" windows) windows measured"
}

# Every kept fork cookie resolves though no cookie came after the fill that pushed their last definitions out:
# the refresh timer wrote them again (stackmap_refresh.c), measuring the window while no cookie came.
check_quiet() {
	local s=$OUT/quiet/trace.summary cookies
	decode_mode quiet trace.dat
	cookies=$(summary_count "$s" cookies)
	((cookies >= 20)) || fail quiet "only $cookies cookies retained: $(cat "$OUT/quiet/fill.txt")"
	grep -q '^overrun: [1-9]' <(trace-cmd report --stat "$OUT/quiet/trace.dat" 2>/dev/null) ||
		fail quiet "the buffer never overwrote: not a flight recorder test"
	(($(counter quiet refreshes) > 0)) || fail quiet "no definition refreshed: $(figures quiet trace)"
	(($(summary_count "$s" resolved) == cookies)) ||
		fail quiet "definitions gone with the fill: $(figures quiet trace); fill: $(cat "$OUT/quiet/fill.txt")"
	say "quiet: forks on CPU 1, then events without a stack ($(cat "$OUT/quiet/fill.txt")):" \
		"$(figures quiet trace); $(counter quiet refreshes) refreshes, $(counter quiet windows) windows measured"
}

# The forks after the loop use stacks defined before it, whose definitions
# the loop's events pushed out of the buffer: every retained cookie resolves.
check_stale() {
	local s=$OUT/stale/trace.summary cookies
	decode_mode stale trace.dat
	cookies=$(summary_count "$s" cookies)
	((cookies >= 4)) || fail stale "only $cookies cookies retained: the forks after the loop are gone"
	grep -q '^overrun: [1-9]' <(trace-cmd report --stat "$OUT/stale/trace.dat" 2>/dev/null) ||
		fail stale "the buffer never overwrote: not a flight recorder test"
	(($(summary_count "$s" resolved) == cookies)) ||
		fail stale "definitions gone with the other events' traffic: $(figures stale trace)"
	say "stale: fork stacks defined, pushed out by raw_syscalls, used again: $(figures stale trace);" \
		"$(counter stale redefines) re-definitions, $(counter stale refreshes) refreshes"
}

check_reset() {
	local gens
	check_complete reset trace.dat
	gens=$(grep -o '<cookie 0x[0-9a-f]* gen [0-9]*' "$OUT/reset/trace.txt" | gawk '{ print $4 }' | sort -u | wc -l)
	((gens >= 2)) || fail reset "cookies of $gens generation(s): the reset did not happen mid-recording"
	say "reset: cookies of $gens generations, all resolved"
}

check_truncated() {
	local s=$OUT/truncated/trace.summary cookies cut
	decode_mode truncated trace.dat
	cookies=$(summary_count "$s" cookies)
	cut=$(grep -c '=> \.\.\. \[truncated\]' "$OUT/truncated/trace.txt" || true)
	((cookies > 100 && cut == cookies)) || fail truncated "$cut of $cookies stacks marked truncated"
	gawk '$1 == "slot" && $NF != "0x1" { bad++ } $1 == "slot" { n++ } END { exit !(n && !bad) }' \
		"$OUT/truncated/stack_map.txt" || fail truncated "stack_map lists an uncut stack at max_depth=2"
	say "truncated (max_depth=2): $cut of $cookies stacks marked '=> ... [truncated]', every listed stack flagged"
}

rm -rf "$OUT"
mkdir -p "$OUT"
run_guest modes --timeout 600 --hung-retries 2
check_all_orphans filtered
check_unrecorded
check_all_orphans elsewhere
check_complete concurrent first.dat
check_complete concurrent second.dat
check_flight
check_flight_like beside "flight recorder started first, a streaming record beside it"
check_complete beside stream.dat
check_stale
check_quiet
check_reset
check_truncated
say "ok on kernel $KERNEL_LABEL ($OUT)"
