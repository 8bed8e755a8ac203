#!/bin/bash
# fgdecode --pprof read by the real consumer, go tool pprof (golang-go), on a
# real recording, with the ASan/UBSan build (tests/decoder/fgdecode_san):
#   totals     -top's total equals the event count fgdecode --top reports
#   flat       -top's flat value of every function equals the events whose
#              stack's leaf is that function in fgdecode --folded
#   stacks     -traces, its samples summed per (event label, stack), equals
#              fgdecode --folded line for line
#   labels     every sample has the event, comm, pid and cpu labels, and
#              -tagfocus on one pid keeps exactly that pid's events
#   fields     the event's fields are labels, on FIELDS_TRACE (default the
#              fixture views.dat: the vm-e2e recording has no kmalloc): the
#              first kmalloc of trace-cmd report -R has bytes_alloc=N, and -tagfocus
#              bytes_alloc=NB (a number in bytes; N alone, without the unit,
#              matches nothing) keeps as many events as fgdecode -F
#              'kmalloc: bytes_alloc == N'; its gfp_flags as trace-cmd report
#              -N prints them keep as many as -F on the raw value, and so
#              does -tagfocus gfp_flags_raw=RAW; -tagfocus prev_state_raw=0
#              and next_pid=0 (a switch to the idle task) keep as many as
#              -F on sched_switch's prev_state == 0 and next_pid == 0;
#              -tags lists them
#   merge      the profiles of CPU 0 and CPU 1 (--cpu), merged by
#              go tool pprof -proto, have the stacks of the whole trace
#   stdout     --pprof - writes the same profile to standard output
#   weight     with --weight FIELD the samples' second value (its type named
#              FIELD) sums to fgdecode --top's total, and their counts to its
#              events; with --off-cpu --task-root, the nanoseconds (type
#              off-cpu/nanoseconds) likewise, the task and state frames in
#              the stacks
#   dwarf      with Debian's -dbg vmlinux and modules of the trace's kernel
#              (the decoder-dbg suite leaves them in $STACKMAP_CACHE, default
#              /var/cache/stackmap; skipped without), -traces with its
#              inlined frames equals fgdecode --folded with the same files,
#              and the locations carry file:line
# Usage: test_pprof.sh [TRACE.dat]   (default: build/vm-e2e-6.1/trace.dat,
# which the vm-e2e@6.1 suite leaves behind)
# FGDECODE_SAN=PROGRAM tests another build of fgdecode_san in its place
# (tests/test_userland.sh: the one built in a trixie root).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FG=${FGDECODE_SAN:-$ROOT/tests/decoder/fgdecode_san}
TRACE=${1:-$ROOT/build/vm-e2e-6.1/trace.dat}
FIELDS_TRACE=${FIELDS_TRACE:-$ROOT/tests/fixtures/traces/views.dat}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=tests/decoder/check_lib.sh
. "$ROOT/tests/decoder/check_lib.sh"
export ASAN_OPTIONS="exitcode=90" UBSAN_OPTIONS="exitcode=91:print_stacktrace=1"

# fgdecode ARGS...: the decoder, failing the test on any error.
fgdecode() {
	"$FG" --no-summary "$@" "$TRACE" || { echo "test_pprof: fgdecode $* failed" >&2; exit 1; }
}

# pprof ARGS...: go tool pprof, failing the test on any error.
pprof() {
	go tool pprof "$@" 2>"$TMP/pprof.err" || {
		echo "test_pprof: go tool pprof $* failed: $(tail -1 "$TMP/pprof.err")" >&2
		exit 1
	}
}

# traces_folded < -traces output: "EVENT;ROOT;...;LEAF COUNT" per sample
# (event label without its system, frames root first), summed and sorted.
traces_folded() {
	awk '
	function flush() {
		if (n) {
			line = ev
			for (i = n; i >= 1; i--) line = line ";" f[i]
			sum[line] += v
		}
		n = 0
	}
	/^-----------\+/ { flush(); ev = ""; next }
	/^ +event: / { ev = $2; sub(/^[^:]*:/, "", ev); next }
	/^ +[a-z_]+: / { next }
	/^ +[0-9]+ +[^ ]/ { flush(); v = $1; f[++n] = $2; next }
	/^ +[^ ]/ && n { f[++n] = $1 }
	END { flush(); for (l in sum) print l, sum[l] }' | LC_ALL=C sort
}

# folded: fgdecode --folded of the events, without orphans (no event
# carried them; --pprof leaves them out), summed per line (two stacks can
# differ only in their offsets, which folded lines do not show).
folded() {
	fgdecode --folded "$@" | grep -v '^\[orphan' |
		awk '{ w = $NF; $NF = ""; sub(/ $/, ""); sum[$0] += w } END { for (l in sum) print l, sum[l] }' |
		LC_ALL=C sort
}

test_totals() {
	local want got
	want=$(fgdecode --top 1 | sed -n 's/.* over \([0-9]*\) events\? with a stack$/\1/p')
	got=$(pprof -top "$TMP/all.pb.gz" | sed -n 's/.*% of \([0-9]*\) total$/\1/p')
	check totals "$([[ -n $want && $want == "$got" ]] || echo "fgdecode --top counts '$want' events, pprof -top '$got'")"
}

test_flat() {
	local why
	awk '{ n = split($1, f, ";"); flat[f[n]] += $2 } END { for (k in flat) print k, flat[k] }' \
		"$TMP/folded" | LC_ALL=C sort >"$TMP/flat.want"
	pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$TMP/all.pb.gz" |
		awk '$1 ~ /^[0-9]+$/ && $1 > 0 && NF == 6 { print $6, $1 }' | LC_ALL=C sort >"$TMP/flat.got"
	why=$(diff "$TMP/flat.want" "$TMP/flat.got" | head -3)
	check flat "${why:+-top flat values differ from the folded leaves: $why}"
}

test_stacks() {
	local why
	pprof -traces "$TMP/all.pb.gz" | traces_folded >"$TMP/traces"
	why=$(diff "$TMP/folded" "$TMP/traces" | head -3)
	[[ -s $TMP/folded ]] || why="fgdecode --folded printed nothing"
	check stacks "${why:+-traces differs from --folded: $why}"
}

test_labels() {
	local why="" pid want got samples
	pprof -traces "$TMP/all.pb.gz" >"$TMP/traces.raw"
	# A separator line before every sample, and one after the last.
	samples=$(($(grep -c '^-----------+' "$TMP/traces.raw") - 1))
	for key in event comm pid cpu; do
		[[ $(grep -c "^ *$key: " "$TMP/traces.raw") == "$samples" ]] ||
			why+="not every sample has the label $key; "
	done
	pid=$(awk '/^ +pid: / { print $2; exit }' "$TMP/traces.raw")
	want=$(fgdecode --top 1 --pid "$pid" | sed -n 's/.* over \([0-9]*\) events\? with a stack$/\1/p')
	# A string label: a regular expression (a bare number would be a
	# numeric range).
	got=$(pprof -top -nodefraction=0 -tagfocus="pid=^$pid\$" "$TMP/all.pb.gz" |
		sed -n 's/^Showing nodes accounting for \([0-9]*\), .*/\1/p')
	[[ $want == "$got" ]] || why+="pid $pid: fgdecode --pid counts $want events, -tagfocus $got"
	check labels "$why"
}

# count_top ARGS...: the events with a stack fgdecode --top counts.
count_top() {
	fgdecode --top 1 "$@" | sed -n 's/.* over \([0-9]*\) events\? with a stack$/\1/p'
}

# count_focus TAGFOCUS: the samples go tool pprof -tagfocus keeps.
count_focus() {
	pprof -top -nodefraction=0 -tagfocus="$1" "${PROFILE:-$TMP/all.pb.gz}" |
		sed -n 's/^Showing nodes accounting for \([0-9]*\), .*/\1/p'
}

test_fields() {
	local why="" raw printed n g want got TRACE=$FIELDS_TRACE PROFILE=$TMP/fields.pb.gz
	fgdecode --pprof "$PROFILE"
	raw=$(trace-cmd report -R "$TRACE" 2>/dev/null | grep -m1 ' kmalloc: ')
	printed=$(trace-cmd report -N "$TRACE" 2>/dev/null | grep -m1 ' kmalloc: ')
	n=$(sed -n 's/.* bytes_alloc=\([0-9]*\) .*/\1/p' <<<"$raw")
	g=$(sed -n 's/.* gfp_flags=\([^ ]*\) .*/\1/p' <<<"$raw")
	if [[ -z $n || -z $g ]]; then
		check fields "no kmalloc with bytes_alloc and gfp_flags in trace-cmd report -R"
		return
	fi
	want=$(count_top -F "kmalloc: bytes_alloc == $n")
	got=$(count_focus "bytes_alloc=${n}B")
	[[ -n $want && $want -gt 0 && $want == "$got" ]] ||
		why+="bytes_alloc $n: fgdecode -F counts '$want' events, -tagfocus bytes_alloc=${n}B '$got'; "
	got=$(count_focus "bytes_alloc=$n")
	[[ $got == 0 ]] || why+="bytes_alloc=$n without its unit kept $got events; "
	printed=$(sed -n 's/.* gfp_flags=\([^ ]*\) .*/\1/p' <<<"$printed")
	want=$(count_top -F "kmalloc: gfp_flags == $((g))")
	# A string label: a regular expression, its '|' and '+' escaped.
	got=$(count_focus "gfp_flags=^$(sed 's/[|+.]/\\&/g' <<<"$printed")\$")
	[[ -n $want && $want -gt 0 && $want == "$got" ]] ||
		why+="gfp_flags $printed ($g): fgdecode -F counts '$want' events, -tagfocus '$got'; "
	# Its raw value, a number label beside it.
	got=$(count_focus "gfp_flags_raw=$((g))")
	[[ $want == "$got" ]] ||
		why+="gfp_flags $((g)): fgdecode -F counts '$want' events, -tagfocus gfp_flags_raw=$((g)) '$got'; "
	# prev_state 0 (TASK_RUNNING, printed R or R+): the raw value 0 kept.
	want=$(count_top -F "sched_switch: prev_state == 0")
	got=$(count_focus "prev_state_raw=0")
	[[ -n $want && $want -gt 0 && $want == "$got" ]] ||
		why+="prev_state 0: fgdecode -F counts '$want' events, -tagfocus prev_state_raw=0 '$got'; "
	# A number without a unit of its own, 0: pprof drops such a label
	# unless it has a unit ("count").
	want=$(count_top -F "sched_switch: next_pid == 0")
	got=$(count_focus "next_pid=0")
	[[ -n $want && $want -gt 0 && $want == "$got" ]] ||
		why+="next_pid 0: fgdecode -F counts '$want' events, -tagfocus next_pid=0 '$got'; "
	pprof -tags "$PROFILE" >"$TMP/tags"
	for key in bytes_alloc gfp_flags gfp_flags_raw prev_state prev_state_raw; do
		grep -q "^ *$key: Total" "$TMP/tags" || why+="-tags lists no $key; "
	done
	check fields "$why"
}

test_merge() {
	local why
	fgdecode --pprof "$TMP/cpu0.pb.gz" --cpu 0
	fgdecode --pprof "$TMP/cpu1.pb.gz" --cpu 1
	pprof -proto "$TMP/cpu0.pb.gz" "$TMP/cpu1.pb.gz" >"$TMP/merged.pb.gz"
	pprof -traces "$TMP/merged.pb.gz" | traces_folded >"$TMP/merged"
	why=$(diff "$TMP/folded" "$TMP/merged" | head -3)
	check merge "${why:+the merged CPU 0 and CPU 1 profiles differ from the whole trace: $why}"
}

test_stdout() {
	"$FG" --no-summary --pprof - "$TRACE" >"$TMP/stdout.pb.gz" || { check stdout "fgdecode --pprof - failed"; return; }
	check stdout "$(cmp -s <(gzip -dc "$TMP/stdout.pb.gz") <(gzip -dc "$TMP/all.pb.gz") ||
		echo "--pprof - differs from --pprof FILE")"
}

# duration_nanos: the span from the trace's first record to its last, as
# trace-cmd report's timestamps give it, shown by pprof to 10 ms.
test_duration() {
	local want got
	want=$(trace-cmd report -N "$TRACE" 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; if (!n++) f = t; break } }
		END { if (n) printf "%.2fs\n", t - f }')
	got=$(pprof -top "$TMP/all.pb.gz" | sed -n 's/^Duration: \([0-9.]*s\),.*/\1/p')
	check duration "$([[ -n $want && $want == "$got" ]] || echo "pprof shows Duration '$got', the trace spans '$want'")"
}

# raw_sums FILE: "COUNT WEIGHT" summed over the samples of go tool pprof -raw.
raw_sums() {
	pprof -raw "$1" | awk '/^ +[0-9]+ +[0-9]+: / { c += $1; w += $2 } END { print c + 0, w + 0 }'
}

test_weight() {
	local why="" want got top
	fgdecode --pprof "$TMP/w.pb.gz" --weight prev_prio
	top=$(fgdecode --top 1 --weight prev_prio | head -1)
	want="$(sed -n 's/.* over \([0-9]*\) events\? with a stack, \([0-9]*\) prev_prio in all$/\1 \2/p' <<<"$top")"
	got=$(raw_sums "$TMP/w.pb.gz")
	[[ -n $want && $want == "$got" ]] || why+="--weight prev_prio: fgdecode --top '$top', pprof samples sum to '$got'; "
	pprof -raw "$TMP/w.pb.gz" >"$TMP/w.raw"
	grep -q '^events/count prev_prio/count$' "$TMP/w.raw" || why+="no sample type prev_prio; "
	fgdecode --pprof "$TMP/oc.pb.gz" --off-cpu --task-root
	top=$(fgdecode --top 1 --off-cpu | head -1)
	# "over N intervals" (or "events with a stack"), "D (T ns) in all"
	want="$(sed -n 's/.* over \([0-9]*\) [a-z ]*, [0-9.]* [mun]*s (\([0-9]*\) ns) in all$/\1 \2/p' <<<"$top")"
	got=$(raw_sums "$TMP/oc.pb.gz")
	[[ -n $want && $want == "$got" ]] || why+="--off-cpu: fgdecode --top '$top', pprof samples sum to '$got'; "
	pprof -raw "$TMP/oc.pb.gz" >"$TMP/oc.raw"
	grep -q '^events/count off-cpu/nanoseconds$' "$TMP/oc.raw" || why+="no sample type off-cpu/nanoseconds; "
	pprof -traces "$TMP/oc.pb.gz" >"$TMP/oc.traces"
	grep -q '^ *\[[A-Z+]*\]$' "$TMP/oc.traces" || why+="no state frame under --task-root; "
	check weight "$why"
}

test_dwarf() {
	local rel dir why=""
	rel=$(trace-cmd report --uname -i "$TRACE" 2>/dev/null | awk 'NR == 2 { print $3 }')
	dir=${STACKMAP_CACHE:-/var/cache/stackmap}/debuginfo/$rel/usr/lib/debug
	if [[ -z $rel || ! -f $dir/boot/vmlinux-$rel ]]; then
		echo "SKIP dwarf: no $dir/boot/vmlinux-$rel (the decoder-dbg suite extracts it)"
		return
	fi
	local dw=(--vmlinux "$dir/boot/vmlinux-$rel" --modules "$dir/lib/modules/$rel")
	fgdecode --pprof "$TMP/dw.pb.gz" "${dw[@]}"
	folded "${dw[@]}" >"$TMP/dw.folded"
	# -traces marks an inlined frame "NAME (inline)": traces_folded keeps NAME.
	pprof -traces "$TMP/dw.pb.gz" >"$TMP/dw.raw"
	traces_folded <"$TMP/dw.raw" >"$TMP/dw.traces"
	grep -q ' (inline)$' "$TMP/dw.raw" || why+="no inlined frame; "
	why+=$(diff "$TMP/dw.folded" "$TMP/dw.traces" | head -3)
	pprof -raw "$TMP/dw.pb.gz" >"$TMP/dw.locs"
	grep -q ' [a-z0-9_/.-]*\.[ch]:[1-9][0-9]* s=0$' "$TMP/dw.locs" || why+="no file:line in the locations"
	check dwarf "$why"
}

main() {
	[[ -x $FG ]] || { echo "test_pprof: build tests/decoder first (make -C tests/decoder)"; exit 2; }
	[[ -f $TRACE ]] || { echo "test_pprof: no real trace at $TRACE (run tests/run-tests.sh vm-e2e@6.1)"; exit 2; }
	command -v go >/dev/null || { echo "test_pprof: go tool pprof is missing (apt-get install golang-go)"; exit 2; }
	fgdecode --pprof "$TMP/all.pb.gz"
	folded >"$TMP/folded"
	test_totals
	test_flat
	test_stacks
	test_labels
	test_fields
	test_merge
	test_stdout
	test_duration
	test_weight
	test_dwarf
	check_summary pprof
}

main "$@"
