#!/bin/bash
# The record front end (record/trace-cmd) on the real kernel: recordings made
# through it in a qemu guest with the stock trace-cmd (tests/vm/guest/
# frontend.sh), checked on the host:
#   noload  refused with a clear message, exit 1
#   plain   a trace without stackmap events reports byte for byte the same
#           with and without the plugin
#   sched, func, reset
#           exit 0; attachments present while recording and restored after;
#           the stored snapshot equals the guest's final stack_map (generation,
#           entries, hits); stock report/dump/convert accept the file;
#           fgdecode and the plugin print the same stack for every event
#           (tests/plugin/check_report.sh); reset: cookies of both
#           generations, all resolved from definitions in both tools
#   stale   cookies of the reset generation, definitions filtered out, are
#           stale/unknown in both tools, never resolved
#   int     SIGINT to the process group: trace and snapshot written, module
#           restored
#   fail    the real record's exit code passed on, module restored
#   flight  trace-cmd start -b 64 / stop / extract: extract through the front
#           end stored the final map (= the guest's stack_map); fgdecode
#           --strict resolves every cookie (how many only from the snapshot
#           is reported)
# The front end runs as make install puts it (PREFIX/bin/trace-cmd, found on
# Debian's default root PATH ahead of /usr/bin/trace-cmd): the guest gets
# the files of a make install into $OUT/dest.
# Needs `make` to have built kmod/stackmap.ko, decoder/fgdecode, plugin/ and record/.
# REUSE=1 checks the files of the previous guest run again without booting.
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
# The kernel (STACKMAP_KERNEL, default the one kmod/stackmap.ko was built for): KO, VM_ARGS, OUT, KERNEL_LABEL.
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-frontend}"
FE=$OUT/fe
SNAP=$ROOT/record/stackmap-snapshot
export TRACEEVENT_PLUGIN_DIR=$ROOT/plugin

# A helper the guest needs: run a command in a new session with SIGINT at its
# default (a non-interactive shell starts background jobs with it ignored).
build_sigdfl() {
	cc -O2 -Wall -Wextra -Werror -o "$OUT/sigdfl" -x c - <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	signal(SIGINT, SIG_DFL);
	setsid();
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
EOF
}

# record: the front end installed, the guest's recordings back.
record() {
	rm -rf "$OUT"
	mkdir -p "$OUT"
	build_sigdfl
	make -s -C "$ROOT" install DESTDIR="$OUT/dest" >/dev/null || fail "make install" "into $OUT/dest"
	# Under its soname: /extra is the guest's LD_LIBRARY_PATH.
	cp "$(readlink -f /usr/lib/x86_64-linux-gnu/libtracecmd.so.1)" "$OUT/libtracecmd.so.1"
	run_guest frontend --smp 1 --timeout 420 \
		--extra "$OUT/dest/usr/local/bin/trace-cmd" "$OUT/dest/usr/local/bin/stackmap-snapshot" "$OUT/sigdfl" \
		"$OUT/libtracecmd.so.1"
}

rc() {
	cat "$FE/$1.rc"
}

check_noload() {
	[[ $(rc noload) == 1 ]] || fail noload "exit $(rc noload), want 1"
	grep -q 'stackmap.ko is not loaded' "$FE/noload.err" || fail noload "message: $(cat "$FE/noload.err")"
	[[ ! -e $FE/noload.dat ]] || fail noload "a trace was recorded"
	say "noload: refused: $(cat "$FE/noload.err")"
}

check_plain() {
	env -u TRACEEVENT_PLUGIN_DIR trace-cmd report -i "$FE/plain.dat" >"$OUT/plain.stock" 2>&1
	trace-cmd report -i "$FE/plain.dat" >"$OUT/plain.plugin" 2>&1
	cmp -s "$OUT/plain.stock" "$OUT/plain.plugin" || fail plain "report differs with the plugin loaded"
	say "plain: $(wc -l <"$OUT/plain.stock") lines byte for byte identical with and without the plugin"
}

# restored NAME: attachments after the run equal those before it (none).
restored() {
	if ! cmp -s "$FE/before.tracepoints" "$FE/$1.tracepoints" ||
	   ! cmp -s "$FE/before.functions" "$FE/$1.functions"; then
		fail "$1" "attachments not restored: $(cat "$FE/$1.tracepoints" "$FE/$1.functions")"
	fi
}

# snapshot_matches NAME: the snapshot in NAME.dat is NAME.stack_map.
snapshot_matches() {
	local want got
	want=$(gawk 'NR == 1 { g = $3 } $1 == "slot" { n++; h += $6 } END { printf "generation %d entries %d hits %d", g, n, h }' \
		"$FE/$1.stack_map")
	got=$("$SNAP" show "$FE/$1.dat" | sed -n 1p)	# sed reads it all: no SIGPIPE under pipefail
	[[ $got == "$want" ]] || fail "$1" "snapshot [$got], guest stack_map [$want]"
	"$SNAP" show "$FE/$1.dat" | tail -n +2 | sort >"$OUT/$1.snap.entries"
	gawk '$1 == "slot" { print "slot " $2 " hits " $6 " depth " $8 }' "$FE/$1.stack_map" | sort >"$OUT/$1.map.entries"
	cmp -s "$OUT/$1.snap.entries" "$OUT/$1.map.entries" || fail "$1" "snapshot entries differ from stack_map"
	say "$1: snapshot = final stack_map: $got"
}

stock_tools_accept() {
	trace-cmd dump --options -i "$FE/$1.dat" >"$OUT/$1.dump" 2>&1 || fail "$1" "trace-cmd dump failed"
	grep -q "^ 21332 .*Unknown option" "$OUT/$1.dump" || fail "$1" "dump does not show the snapshot option"
	env -u TRACEEVENT_PLUGIN_DIR trace-cmd report -i "$FE/$1.dat" >/dev/null 2>&1 || fail "$1" "stock trace-cmd report failed"
	trace-cmd convert -i "$FE/$1.dat" -o "$OUT/$1.conv.dat" >/dev/null 2>&1 || fail "$1" "trace-cmd convert failed"
	"$SNAP" show "$OUT/$1.conv.dat" >/dev/null || fail "$1" "convert dropped the snapshot"
}

# summary NAME: fgdecode's summary line for NAME.dat.
summary() {
	"$FGDECODE" --cookies --no-summary "$FE/$1.dat" >"$OUT/$1.fg" 2>/dev/null
	"$FGDECODE" "$FE/$1.dat" 2>&1 >/dev/null | tail -n1
}

check_recording() {
	local name=$1 during=$2 want=$3
	[[ $(rc "$name") == 0 ]] || fail "$name" "exit $(rc "$name"): $(cat "$FE/$name.err")"
	[[ $(cat "$FE/$name.$during") == "$want" ]] || fail "$name" "not attached while recording: $(cat "$FE/$name.$during")"
	restored "$name"
	snapshot_matches "$name"
	stock_tools_accept "$name"
	"$ROOT/tests/plugin/check_report.sh" "$FE/$name.dat" || fail "$name" "plugin and fgdecode stacks differ"
	say "$name: fgdecode: $(summary "$name")"
}

# The front end stored saved_tgids (its record-tgid on while recording, off again after): every header of
# `fgdecode --perf-script` names the task's process as PID/TID, the same as the guest's /proc says for the tasks
# still alive; only the idle task (tid 0, which the kernel never saves) goes without.
check_tgids() {
	local counts with alive bad idle without
	[[ $(cat "$FE/sched.record_tgid_after") == 0 ]] || fail tgids "options/record-tgid left on after the recording"
	"$FGDECODE" --perf-script "$FE/sched.dat" >"$OUT/sched.perf" 2>/dev/null ||
		fail tgids "fgdecode --perf-script failed"
	counts=$(gawk 'FNR == NR { tg[$1] = $2; next }
		/^[^\t]/ && match($0, / ([0-9]+)\/([0-9]+) +\[[0-9]+\] /, m) {
			with++; if (m[2] in tg) { alive++; if (tg[m[2]] != m[1]) bad++ }; next }
		/^[^\t]/ && match($0, / ([0-9]+) \[[0-9]+\] /, m) { if (m[1] == 0) idle++; else without++ }
		END { printf "%d %d %d %d %d", with, alive, bad, idle, without }' "$FE/sched.proc_tgids" "$OUT/sched.perf")
	read -r with alive bad idle without <<<"$counts"
	((with > 100 && alive > 0 && bad == 0 && without == 0)) ||
		fail tgids "perf-script headers: $with with PID/TID ($alive of tasks alive at the end, $bad of them wrong), $without of tasks other than idle without"
	say "tgids: $with perf-script headers name PID/TID ($alive of tasks alive at the end, as /proc says), $idle of the idle task its tid alone; record-tgid off again"
}

check_reset() {
	local gens
	[[ $(rc reset) == 0 ]] || fail reset "exit $(rc reset): $(cat "$FE/reset.err")"
	restored reset
	snapshot_matches reset
	"$ROOT/tests/plugin/check_report.sh" "$FE/reset.dat" || fail reset "plugin and fgdecode stacks differ"
	trace-cmd report -i "$FE/reset.dat" >"$OUT/reset.plugin" 2>/dev/null
	gens=$(grep -o 'stack_cookie: *cookie gen [0-9]*' "$OUT/reset.plugin" | gawk '{ print $NF }' | sort -u | wc -l)
	((gens >= 2)) || fail reset "cookies of $gens generation(s), want 2"
	grep -q '^=> <' "$OUT/reset.plugin" && fail reset "plugin left cookies unresolved"
	summary reset | grep -q ' 0 stale, 0 unknown,' || fail reset "fgdecode: $(summary reset)"
	say "reset: cookies of $gens generations, all resolved in both tools"
}

check_stale() {
	local old fg_old pl_old fg_res pl_res
	old=$(cat "$FE/stale.old_generation")
	[[ $(rc stale) == 0 ]] || fail stale "exit $(rc stale)"
	restored stale
	summary stale >/dev/null
	trace-cmd report -i "$FE/stale.dat" >"$OUT/stale.plugin" 2>/dev/null
	# Old-generation cookies: each followed by a stale/unknown marker.
	fg_old=$(gawk -v g="$old" '$1 == "<cookie" && $4 == g { n++; getline l; if (l ~ /=> <(stale|unknown) cookie gen /) u++ } END { print n + 0, u + 0 }' "$OUT/stale.fg")
	pl_old=$(gawk -v g="$old" '/: stack_cookie: / && $(NF - 2) == g { n++; getline l; if (l ~ /^=> <(stale|unknown) cookie gen /) u++ } END { print n + 0, u + 0 }' "$OUT/stale.plugin")
	read -r fg_n fg_u <<<"$fg_old"
	read -r pl_n pl_u <<<"$pl_old"
	((fg_n > 0 && fg_n == fg_u)) || fail stale "fgdecode: $fg_u of $fg_n old cookies unresolved"
	((pl_n == fg_n && pl_u == pl_n)) || fail stale "plugin: $pl_u of $pl_n old cookies unresolved (fgdecode saw $fg_n)"
	"$ROOT/tests/plugin/check_report.sh" "$FE/stale.dat" || fail stale "plugin and fgdecode stacks differ"
	summary stale | grep -q ' [1-9][0-9]* resolved,' || fail stale "no cookie of the new generation resolved"
	fg_res=$(grep -c '^    => <stale cookie' "$OUT/stale.fg" || true)
	pl_res=$(grep -c '^=> <stale cookie' "$OUT/stale.plugin" || true)
	((fg_res > 0 && pl_res > 0)) || fail stale "stale markers: fgdecode $fg_res, plugin $pl_res"
	say "stale: all $fg_n cookies of generation $old unresolved in both tools (stale markers: fgdecode $fg_res, plugin $pl_res)"
}

check_int() {
	[[ $(rc int) == 0 ]] || fail int "exit $(rc int): $(cat "$FE/int.err")"
	[[ $(cat "$FE/int.during") == sched:sched_switch ]] || fail int "not attached while recording"
	restored int
	"$SNAP" show "$FE/int.dat" >/dev/null || fail int "no snapshot after Ctrl-C"
	say "int: SIGINT: exit 0, $("$SNAP" show "$FE/int.dat" | sed -n 1p), module restored"
}

check_fail() {
	[[ $(rc fail) != 0 ]] || fail fail "exit 0 for a failing record"
	restored fail
	say "fail: real record's exit $(rc fail) passed on, module restored"
}

# fgdecode --strict must find every cookie resolved.  The one exception it
# may report: an orphan stack at the start of the oldest page left in the
# overwritten ring buffer (its event was on the page dropped before it);
# with --smp 1 there is at most one.
check_flight() {
	local p summary cookies resolved stale unknown orphans snap rc=0
	for p in flight_start flight_stop flight; do
		[[ $(rc $p) == 0 ]] || fail flight "$p: exit $(rc $p): $(cat "$FE/$p.err")"
	done
	restored flight
	snapshot_matches flight
	"$FGDECODE" --strict "$FE/flight.dat" >/dev/null 2>"$OUT/flight.summary" || rc=$?
	summary=$(grep '^fgdecode: [0-9]* events' "$OUT/flight.summary" | tail -n1)
	read -r cookies resolved stale unknown orphans snap < <(gawk '{
		c = r = st = u = o = s = 0
		if (match($0, /([0-9]+) cookies, ([0-9]+) resolved, ([0-9]+) stale, ([0-9]+) unknown/, m)) {
			c = m[1]; r = m[2]; st = m[3]; u = m[4]
		}
		if (match($0, /([0-9]+) orphan/, m)) o = m[1]
		if (match($0, /([0-9]+) from snapshot/, m)) s = m[1]
		print c, r, st, u, o, s }' <<<"$summary")
	if ! ((rc == 0 || (rc == 3 && orphans <= 1 && stale == 0 && unknown == 0))) ||
	   [[ $summary == *conflicting* || $summary == *corrupt* ]]; then
		fail flight "fgdecode --strict exit $rc: $(tail -n2 "$OUT/flight.summary")"
	fi
	((cookies > 0 && resolved == cookies)) || fail flight "$resolved of $cookies cookies resolved: $summary"
	# How many needed the snapshot is only reported: the module redefines
	# stacks in an overwriting buffer (6b23e83), so the definitions left in
	# the buffer may cover every cookie.
	say "flight: start/stop/extract: all $cookies cookies resolved, $snap from the snapshot extract stored (fgdecode --strict exit $rc, $orphans orphan)"
}

[[ ${REUSE:-0} == 1 && -d $FE ]] || record
check_noload
check_plain
check_recording sched during sched:sched_switch
check_tgids
check_recording func during do_sys_openat2
check_reset
check_stale
check_int
check_fail
check_flight
# The host-side plugin tests, on this run's recording instead of the sample.
"$ROOT/tests/plugin/test_frontend_args.sh" "$FE/sched.dat" "$FE/sched.stack_map" || fail "front end (stub)" "see above"
"$ROOT/tests/plugin/test_tracedat.sh" "$FE/sched.dat" "$FE/sched.stack_map" || fail "snapshot and plugin options" "see above"
say "ok on kernel $KERNEL_LABEL ($OUT)"
