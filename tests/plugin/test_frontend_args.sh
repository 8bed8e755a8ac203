#!/bin/bash
# Host test of the front end (record/trace-cmd) against a stub "real"
# trace-cmd and a stub module directory: the arguments it hands on, what it
# attaches while the stub records, what it detaches afterwards, the snapshot
# it stores after record -O stackmap and after extract, its refusals,
# pass-through exit codes and streams, and how it finds the real trace-cmd
# when it is itself "trace-cmd" on PATH (as make install puts it).
# Usage: tests/plugin/test_frontend_args.sh [TRACE.dat LISTING]  (after make
# -C plugin; default: the recorded tests/vm/sample/ trace.dat and stack_map)
# "COND && ok || bad MSG": ok only counts and never fails.
# shellcheck disable=SC2015
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FE=$ROOT/record/trace-cmd
TRACE=${1:-$ROOT/tests/vm/sample/trace.dat}
LISTING=${2:-$ROOT/tests/vm/sample/stack_map.txt}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0 PASSES=0

ok() { PASSES=$((PASSES + 1)); }
bad() { echo "test_frontend_args: FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
expect() { # NAME WANT GOT
	if [[ $2 == "$3" ]]; then ok; else bad "$1: want [$2] got [$3]"; fi
}

# The stub module files only collect what is written to them (the front end
# appends), so after a run they hold the exact sequence of writes.
# Stub real trace-cmd: logs its arguments (one per line) and the module's
# attachment files at record time; writes the sample trace.dat to -o FILE
# (-oFILE, default trace.dat) whatever the command; "stdin" copies its
# standard input to its standard output.
cat >"$TMP/real" <<'STUB'
#!/bin/bash
printf '%s\n' "$@" >"$STUB_LOG"
cat "$STACKMAP_DIR/tracepoints" "$STACKMAP_DIR/functions" >"$STUB_LOG.attached" 2>/dev/null
[[ ${1-} == stdin ]] && cat
out=trace.dat
while (($#)); do
	case $1 in -o) out=$2 ;; -o?*) out=${1#-o} ;; esac
	shift
done
cp "$SAMPLE_TRACE" "$out"
exit "${STUB_RC:-0}"
STUB
chmod +x "$TMP/real"

setup_module() {
	rm -rf "$TMP/mod"
	mkdir -p "$TMP/mod"
	cp "$LISTING" "$TMP/mod/stack_map"
	: >"$TMP/mod/tracepoints"
	: >"$TMP/mod/functions"
}

run_fe() {
	(cd "$TMP" && STACKMAP_REAL_TRACE_CMD=$TMP/real STACKMAP_DIR=$TMP/mod \
		STUB_LOG=$TMP/log SAMPLE_TRACE=$TRACE "$FE" "$@")
}

# 1. Events: -O stackmap dropped, -e stackmap added before the command.
setup_module
run_fe record -O stackmap -e sched:sched_switch -o out.dat sleep 1 >"$TMP/stdout" 2>"$TMP/stderr"
expect "record exit" 0 $?
expect "args" "record -e sched:sched_switch -o out.dat -e stackmap sleep 1" "$(paste -sd' ' "$TMP/log")"
expect "attached while recording" "sched:sched_switch" "$(cat "$TMP/log.attached")"
expect "writes: attach, detach" $'sched:sched_switch\n!sched:sched_switch' "$(cat "$TMP/mod/tracepoints")"
expect "snapshot" "$(gawk 'NR == 1 { g = $3 } $1 == "slot" { n++; h += $6 } END { printf "generation %d entries %d hits %d", g, n, h }' "$LISTING")" \
	"$("$ROOT/record/stackmap-snapshot" show "$TMP/out.dat" | head -n1)"

# 2. -p function -l FUNC: not passed on, attached to functions; no command.
setup_module
run_fe record -p function -l vfs_read -O stackmap -q >/dev/null 2>"$TMP/stderr"
expect "function exit" 0 $?
expect "function args" "record -q -e stackmap" "$(paste -sd' ' "$TMP/log")"
expect "function attached" "vfs_read" "$(cat "$TMP/log.attached")"
expect "function writes: attach, detach" $'vfs_read\n!vfs_read' "$(cat "$TMP/mod/functions")"

# 3. An already attached tracepoint is left attached; options after the
# command belong to the command.
setup_module
echo sched:sched_switch >"$TMP/mod/tracepoints"
run_fe record -Ostackmap -esched:sched_switch ls -O stackmap >/dev/null 2>&1
expect "attached form args" "record -esched:sched_switch -e stackmap ls -O stackmap" "$(paste -sd' ' "$TMP/log")"
expect "pre-attached: nothing written" "sched:sched_switch" "$(cat "$TMP/mod/tracepoints")"

# 4. A failing record: its exit code, still detached, no snapshot claimed.
setup_module
STUB_RC=3 run_fe record -O stackmap -e sched:sched_switch true >/dev/null 2>&1
expect "failing record exit" 3 $?
expect "failing record: attach, detach" $'sched:sched_switch\n!sched:sched_switch' "$(cat "$TMP/mod/tracepoints")"

# 5. Refusals: module missing, -p function without -l, instances.
rm -rf "$TMP/mod"
run_fe record -O stackmap -e sched:sched_switch true >/dev/null 2>"$TMP/stderr"
expect "no module exit" 1 $?
grep -q 'stackmap.ko is not loaded' "$TMP/stderr" && ok || bad "no module message: $(cat "$TMP/stderr")"
setup_module
run_fe record -O stackmap -p function true >/dev/null 2>"$TMP/stderr"
expect "-p function without -l exit" 1 $?
grep -q 'needs at least one -l' "$TMP/stderr" && ok || bad "-p function message"
run_fe record -O stackmap -A agent -e sched:sched_switch true >/dev/null 2>"$TMP/stderr"
expect "-A exit" 1 $?
grep -q -- '-A (a remote agent) is not supported' "$TMP/stderr" && ok || bad "-A message: $(cat "$TMP/stderr")"
run_fe record -O stackmap -e sched:sched_switch -B inst -e irq:irq_handler_entry true >/dev/null 2>"$TMP/stderr"
expect "stacks in two buffers: exit" 1 $?
grep -q 'more than one buffer' "$TMP/stderr" && ok || bad "stacks in two buffers: message: $(cat "$TMP/stderr")"
expect "stacks in two buffers: nothing attached" "" "$(cat "$TMP/mod/tracepoints")"

# 5b. Instances: the snapshot is the module's, whatever the buffer; "-e
# stackmap" goes into the buffer whose events have stacks.
setup_module
run_fe record -O stackmap -B inst -e sched:sched_switch -o inst.dat true >/dev/null 2>"$TMP/stderr"
expect "-B exit" 0 $?
expect "-B args" "record -B inst -e sched:sched_switch -o inst.dat -e stackmap true" "$(paste -sd' ' "$TMP/log")"
expect "-B writes: attach, detach" $'sched:sched_switch\n!sched:sched_switch' "$(cat "$TMP/mod/tracepoints")"
"$ROOT/record/stackmap-snapshot" show "$TMP/inst.dat" >/dev/null 2>&1 && ok || bad "-B: no snapshot stored"
setup_module
run_fe record -O stackmap -e sched:sched_switch -Binst -e irq -t true >/dev/null 2>&1
expect "top-level stacks, -B without: args" "record -e sched:sched_switch -e stackmap -Binst -e irq -t true" "$(paste -sd' ' "$TMP/log")"
setup_module
run_fe record -O stackmap -B a -e irq -B b -p function -l vfs_read true >/dev/null 2>&1
expect "-l in the second instance: args" "record -B a -e irq -B b -e stackmap true" "$(paste -sd' ' "$TMP/log")"
expect "-l in the second instance: attached" "vfs_read" "$(cat "$TMP/log.attached")"

# 6. Pass-through: other commands and record without -O stackmap reach the
# real binary unchanged, with its exit code.
setup_module
STUB_RC=7 run_fe report -i "x y.dat" --cpu 1 >/dev/null 2>&1
expect "pass-through exit" 7 $?
expect "pass-through args" "report|-i|x y.dat|--cpu|1" "$(paste -sd'|' "$TMP/log")"
run_fe record -e sched:sched_switch -O stacktrace true >/dev/null 2>&1
expect "record without -O stackmap" "record -e sched:sched_switch -O stacktrace true" "$(paste -sd' ' "$TMP/log")"
expect "record without -O stackmap attaches nothing" "" "$(cat "$TMP/mod/tracepoints")"

# 7. Explicit stackmap events (one with a filter): no extra -e stackmap.
setup_module
run_fe record -O stackmap -e sched:sched_switch -e stackmap:stack_cookie -f 'cookie > 1' true >/dev/null 2>&1
expect "explicit stackmap events" "record -e sched:sched_switch -e stackmap:stack_cookie -f cookie > 1 true" "$(paste -sd' ' "$TMP/log")"

# 8. An option missing its value at the end is passed on last, as given.
setup_module
STUB_RC=1 run_fe record -O stackmap -e sched:sched_switch -o >/dev/null 2>&1
expect "dangling -o: exit" 1 $?
expect "dangling -o: args" "record -e sched:sched_switch -e stackmap -o" "$(paste -sd' ' "$TMP/log")"

# 9. Pass-through to the real /usr/bin/trace-cmd, found first on PATH:
# identical stdout, stderr and exit code.
passthrough() {
	local name=$1
	shift
	(cd "$TMP" && PATH=$ROOT/record:$PATH trace-cmd "$@" >"$TMP/fe.out" 2>"$TMP/fe.err"; echo $? >"$TMP/fe.rc")
	(cd "$TMP" && /usr/bin/trace-cmd "$@" >"$TMP/real.out" 2>"$TMP/real.err"; echo $? >"$TMP/real.rc")
	cmp -s "$TMP/fe.out" "$TMP/real.out" && cmp -s "$TMP/fe.err" "$TMP/real.err" &&
		cmp -s "$TMP/fe.rc" "$TMP/real.rc" && ok ||
		bad "pass-through $name: output or exit code differs (rc $(cat "$TMP/fe.rc") vs $(cat "$TMP/real.rc"))"
	echo "test_frontend_args: pass-through $name: exit $(cat "$TMP/real.rc"), $(wc -l <"$TMP/real.out") lines, identical"
}
[[ $(cd "$TMP" && PATH=$ROOT/record:$PATH command -v trace-cmd) == "$FE" ]] && ok || bad "front end not first on PATH"
passthrough report report -i "$TRACE"
passthrough list list -O
passthrough dump dump --options -i "$TRACE"
passthrough failing report -i /nonexistent/trace.dat
passthrough unknown-command no-such-command

# 10. extract (flight recorder: start ... stop, then extract): the real
# extract with the same arguments, then the module's map stored in the file
# it wrote, -o FILE or trace.dat.
snapshot_line() {
	"$ROOT/record/stackmap-snapshot" show "$1" 2>/dev/null | head -n1
}
# "Nothing stored": the file is still the stub's copy of the input trace
# (which may hold a snapshot of its own, as a front-end recording does).
untouched() {
	cmp -s "$1" "$TRACE"
}
WANT_SNAP=$(gawk 'NR == 1 { g = $3 } $1 == "slot" { n++; h += $6 } END { printf "generation %d entries %d hits %d", g, n, h }' "$LISTING")
setup_module
rm -f "$TMP/trace.dat"
run_fe extract >/dev/null 2>"$TMP/stderr"
expect "extract exit" 0 $?
expect "extract args" "extract" "$(paste -sd' ' "$TMP/log")"
expect "extract: snapshot in trace.dat" "$WANT_SNAP" "$(snapshot_line "$TMP/trace.dat")"
expect "extract: attaches nothing" "" "$(cat "$TMP/mod/tracepoints" "$TMP/mod/functions")"
run_fe extract -B inst -s -o "x y.dat" >/dev/null 2>&1
expect "extract -o exit" 0 $?
expect "extract -o args" "extract|-B|inst|-s|-o|x y.dat" "$(paste -sd'|' "$TMP/log")"
expect "extract -o: snapshot" "$WANT_SNAP" "$(snapshot_line "$TMP/x y.dat")"
run_fe extract -a -oattached.dat >/dev/null 2>&1
expect "extract -oFILE: snapshot" "$WANT_SNAP" "$(snapshot_line "$TMP/attached.dat")"
rm -f "$TMP/failed.dat"
STUB_RC=4 run_fe extract -o failed.dat >/dev/null 2>&1
expect "failing extract: exit" 4 $?
untouched "$TMP/failed.dat" && ok || bad "failing extract: a snapshot was stored"
echo garbage >"$TMP/mod/stack_map"
run_fe extract -o bad.dat >/dev/null 2>"$TMP/stderr"
expect "extract, unreadable listing: exit" 1 $?
grep -q 'bad.dat was written but holds no map snapshot' "$TMP/stderr" && ok || bad "extract, unreadable listing: message: $(cat "$TMP/stderr")"
# Without the module: extract is passed through, nothing stored.
rm -rf "$TMP/mod"
run_fe extract -o nomod.dat >/dev/null 2>"$TMP/stderr"
expect "extract without the module: exit" 0 $?
expect "extract without the module: stderr" "" "$(cat "$TMP/stderr")"
untouched "$TMP/nomod.dat" && ok || bad "extract without the module: a snapshot was stored"

# 11. Commands that write no trace.dat from a buffer (start, stop,
# snapshot, ...) are passed through, module loaded or not: nothing stored.
setup_module
for cmd in "start -b 64 -e stackmap -e sched:sched_switch" "stop" "snapshot -s" "reset" "record -e sched:sched_switch true"; do
	rm -f "$TMP/trace.dat"
	# shellcheck disable=SC2086
	run_fe $cmd >/dev/null 2>&1
	expect "$cmd: args" "$cmd" "$(paste -sd' ' "$TMP/log")"
	untouched "$TMP/trace.dat" && ok || bad "$cmd: a snapshot was stored"
done
expect "pass-through: attaches nothing" "" "$(cat "$TMP/mod/tracepoints" "$TMP/mod/functions")"

# 12. Installed as "trace-cmd" in a directory ahead of the real one on PATH
# (make install: PREFIX/bin before /usr/bin), with no STACKMAP_REAL_TRACE_CMD:
# it finds the real one behind it, skipping itself and any other copy of the
# front end (here a symlink to it first on PATH), and never runs itself.
mkdir -p "$TMP/link" "$TMP/inst" "$TMP/real-bin"
ln -sf "$FE" "$TMP/link/trace-cmd"
install -m 0755 "$FE" "$TMP/inst/trace-cmd"
install -m 0755 "$ROOT/record/stackmap-snapshot" "$TMP/inst/stackmap-snapshot"
install -m 0755 "$TMP/real" "$TMP/real-bin/trace-cmd"
run_path() { # PATH-PREFIX ARGS...
	local dirs=$1
	shift
	(cd "$TMP" && timeout 20 env -u STACKMAP_REAL_TRACE_CMD STACKMAP_DIR="$TMP/mod" \
		STUB_LOG="$TMP/log" SAMPLE_TRACE="$TRACE" PATH="$dirs" trace-cmd "$@")
}
setup_module
rm -f "$TMP/log"
STUB_RC=5 run_path "$TMP/link:$TMP/inst:$TMP/real-bin:$PATH" report -i "a b.dat" >/dev/null 2>"$TMP/stderr"
expect "installed: pass-through exit" 5 $?
expect "installed: pass-through args" "report|-i|a b.dat" "$(paste -sd'|' "$TMP/log" 2>/dev/null)"
expect "installed: pass-through stdin to stdout" $'one\ntwo' "$(printf 'one\ntwo\n' | run_path "$TMP/inst:$TMP/real-bin:$PATH" stdin)"
run_path "$TMP/inst:$TMP/real-bin:$PATH" record -O stackmap -e sched:sched_switch -o path.dat true >/dev/null 2>"$TMP/stderr"
expect "installed: record -O stackmap exit" 0 $?
expect "installed: record -O stackmap args" "record -e sched:sched_switch -o path.dat -e stackmap true" "$(paste -sd' ' "$TMP/log")"
expect "installed: record -O stackmap snapshot" "$WANT_SNAP" "$(snapshot_line "$TMP/path.dat")"
run_path "$TMP/inst:$TMP/real-bin:$PATH" extract -o path-ext.dat >/dev/null 2>&1
expect "installed: extract snapshot" "$WANT_SNAP" "$(snapshot_line "$TMP/path-ext.dat")"
# No real trace-cmd behind it: a clear error, exit 127, no loop.
run_path "$TMP/link:$TMP/inst" report >/dev/null 2>"$TMP/stderr"
expect "no real trace-cmd: exit" 127 $?
grep -q 'found no real trace-cmd on PATH' "$TMP/stderr" && ok || bad "no real trace-cmd: message: $(cat "$TMP/stderr")"
(cd "$TMP" && STACKMAP_REAL_TRACE_CMD=$TMP/inst/trace-cmd PATH=$TMP/real-bin:$PATH timeout 20 "$FE" report) >/dev/null 2>"$TMP/stderr"
expect "STACKMAP_REAL_TRACE_CMD names a front end: exit" 127 $?
grep -q 'is the stackmap front end' "$TMP/stderr" && ok || bad "STACKMAP_REAL_TRACE_CMD names a front end: message: $(cat "$TMP/stderr")"

echo "test_frontend_args: $PASSES passed, $FAILS failed"
((FAILS == 0))
