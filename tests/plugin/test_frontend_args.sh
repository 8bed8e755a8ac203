#!/bin/bash
# Host test of the record front end (plugin/trace-cmd) against a stub "real"
# trace-cmd and a stub module directory: the arguments it hands on, what it
# attaches while the stub records, what it detaches afterwards, the snapshot
# it stores, its refusals and pass-through exit codes.
# Usage: tests/plugin/test_frontend_args.sh [TRACE.dat LISTING]  (after make
# -C plugin; default: the recorded tests/vm/sample/ trace.dat and stack_map)
# "COND && ok || bad MSG": ok only counts and never fails.
# shellcheck disable=SC2015
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FE=$ROOT/plugin/trace-cmd
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
# attachment files at record time; "record" writes the sample trace.dat to -o.
cat >"$TMP/real" <<'STUB'
#!/bin/bash
printf '%s\n' "$@" >"$STUB_LOG"
cat "$STACKMAP_DIR/tracepoints" "$STACKMAP_DIR/functions" >"$STUB_LOG.attached" 2>/dev/null
out=trace.dat
while (($#)); do [[ $1 == -o ]] && out=$2; shift; done
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
	"$("$ROOT/plugin/stackmap-snapshot" show "$TMP/out.dat" | head -n1)"

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
run_fe record -O stackmap -B inst -e sched:sched_switch true >/dev/null 2>"$TMP/stderr"
expect "-B exit" 1 $?

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
	(cd "$TMP" && PATH=$ROOT/plugin:$PATH trace-cmd "$@" >"$TMP/fe.out" 2>"$TMP/fe.err"; echo $? >"$TMP/fe.rc")
	(cd "$TMP" && /usr/bin/trace-cmd "$@" >"$TMP/real.out" 2>"$TMP/real.err"; echo $? >"$TMP/real.rc")
	cmp -s "$TMP/fe.out" "$TMP/real.out" && cmp -s "$TMP/fe.err" "$TMP/real.err" &&
		cmp -s "$TMP/fe.rc" "$TMP/real.rc" && ok ||
		bad "pass-through $name: output or exit code differs (rc $(cat "$TMP/fe.rc") vs $(cat "$TMP/real.rc"))"
	echo "test_frontend_args: pass-through $name: exit $(cat "$TMP/real.rc"), $(wc -l <"$TMP/real.out") lines, identical"
}
[[ $(cd "$TMP" && PATH=$ROOT/plugin:$PATH command -v trace-cmd) == "$FE" ]] && ok || bad "front end not first on PATH"
passthrough report report -i "$TRACE"
passthrough list list -O
passthrough dump dump --options -i "$TRACE"
passthrough failing report -i /nonexistent/trace.dat
passthrough unknown-command no-such-command

echo "test_frontend_args: $PASSES passed, $FAILS failed"
((FAILS == 0))
