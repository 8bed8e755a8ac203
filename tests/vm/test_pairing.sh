#!/bin/bash
# A stack is never shown under another event, in the recording modes that lose records (guest/pairing.sh
# records them; see its header): a small non-overwriting buffer behind a slow reader, tracing_on toggled in a
# flight recorder, a CPU left out of tracing_cpumask, tasks moved between CPUs by pinned CPU hogs, a
# pid-filtered instance beside a full recording, snapshot swaps.
#
# The oracle (check_pairing.awk): every kmem:kmalloc or kmem:kmem_cache_alloc event fgdecode shows with a
# stack has its call_site among the stack's frames.  Each phase must check at least MIN_CHECKED stacks and
# find none wrong, and trace-cmd report with the plugin must show the same stack under each event
# (tests/plugin/check_report.sh). Also: fgdecode reports the ring buffer's dropped events where trace-cmd's
# CPU stats have them (nooverwrite); leaving a CPU out does not start an epoch per cookie (cpumask); every
# hit was pinned (migration: stats "unpinned" is 0), and tasks did move (sched_migrate_task of the
# allocating tasks); every cookie of the pid-filtered instance and of the buffer the snapshot swaps brought in
# resolves (pidfilter, snapshot); the migration phase again with typed probes (typed, from 6.5: stats
# "typed_tracepoints" is 2); no stack starts in the capture's own frames (iterator, typed stub, trampoline, module).
# Where a stack record goes missing without the ring buffer refusing it, the next one is flagged (never paired)
# and the module counts it: the typed migration phase with the function tracer on the same stubs (listfunc:
# ftrace's list function calls the hooks, and every hit is still pinned), the pin table cut to one entry
# (pins, 6.13 and later, with the module built with STACKMAP_TEST_PIN_SLOTS: hits find it full, stats
# "unpinned" counts them), a filter on stack_cookie beside one on kmem:kmalloc (filter: stats "discarded").
# Prints one line per trace.
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-pairing}"
MIN_CHECKED=${MIN_CHECKED:-500}
# Epochs a recording may start with one CPU refusing every write: one per consumer and CPU that comes back,
# not one per cookie.
MAX_CPUMASK_EPOCHS=20

# stat_of PHASE NAME: the counter NAME of PHASE's stats file.
stat_of() {
	stat_value "$2" "$OUT/$1/stats.txt"
}

# check PHASE [FILE [all]]: the oracle and the plugin cross-check on PHASE's trace (FILE, default trace.dat);
# with "all", every cookie must also resolve (no recording mode of such a phase overwrites definitions).
# Prints the figures.
check() {
	local dir=$OUT/$1 file=${2:-trace.dat} line
	local name=${file%.dat}
	"$FGDECODE" "$dir/$file" >"$dir/$name.decoded.txt" 2>"$dir/$name.summary.txt" ||
		fail "$1" "fgdecode $file exited $? ($(head -n1 "$dir/$name.summary.txt"))"
	[[ ${3:-} != all ]] ||
		all_resolved "$1" "$dir/$name.summary.txt" "$file: cookies without a definition: $(head -n1 "$dir/$name.summary.txt")"
	check_decoded "$1" "$file"
}

# check_decoded PHASE FILE: the oracle on FILE's decoding, then trace-cmd report with the plugin.
check_decoded() {
	local dir=$OUT/$1 file=$2 line
	local name=${file%.dat}
	gawk -f "$ROOT/tests/vm/check_pairing.awk" "$dir/$name.decoded.txt" >"$dir/$name.oracle.txt" ||
		fail "$1" "$file: a stack under another event: $(sed -n 2,3p "$dir/$name.oracle.txt" | tr -s ' ' | tr '\n' ' ')"
	line=$(head -n1 "$dir/$name.oracle.txt")
	(($(gawk '{ print $2 }' <<<"$line") >= MIN_CHECKED)) ||
		fail "$1" "$file: only $(gawk '{ print $2 }' <<<"$line") stacks checked (at least $MIN_CHECKED): $line"
	"$ROOT/tests/plugin/check_report.sh" "$dir/$file" >"$dir/$name.report.txt" 2>&1 ||
		fail "$1" "$file: trace-cmd report with the plugin differs from fgdecode: $(grep -m1 -E '^(no plugin stack|stack of)' "$dir/$name.report.txt"; tail -n1 "$dir/$name.report.txt")"
	say "$1${2:+ ($file)}: $line; $(grep -o '[0-9]* unknown' "$dir/$name.summary.txt")," \
		"$(grep -o '[0-9]* orphan' "$dir/$name.summary.txt" || echo 0 orphan)," \
		"$(grep -o '[0-9]* after a ring buffer loss' "$dir/$name.summary.txt" || echo 0 after a loss);" \
		"$(grep -o 'lost [0-9]* events' "$dir/$name.summary.txt" || echo 'lost 0 events') in the ring buffer"
}

mkdir -p "$OUT"
# pins: the module with a pin table a test can shrink, for the guest to load where probes run preemptible.
if [[ -n ${STACKMAP_KERNEL:-} ]]; then
	pins=$(KMOD_VARIANT=pins "$ROOT/tests/kernels.sh" module "$STACKMAP_KERNEL" KCFLAGS=-DSTACKMAP_TEST_PIN_SLOTS \
		2>"$OUT/pins-build.log") || fail pins "module build failed ($OUT/pins-build.log)"
	cp "$pins" "$OUT/stackmap-pins.ko"
	VM_ARGS+=(--extra "$OUT/stackmap-pins.ko")
fi
run_guest pairing --timeout 600

phases="nooverwrite toggle cpumask migration"
# typed: on kernels with __probestub_NAME (guest/pairing.sh runs it from 6.5)
[[ -d $OUT/typed ]] && phases+=" typed listfunc"
[[ -d $OUT/pins ]] && phases+=" pins"
phases+=" filter"
for phase in $phases; do
	check "$phase"
done
# Every cookie of the pid-filtered instance and of the buffer swapped in by each snapshot has its definition there.
check pidfilter trace.dat all
check pidfilter full.dat
check snapshot trace.dat all

# The buffer refused writes: fgdecode says how many, as trace-cmd's CPU stats do.
dropped=$(trace-cmd report --stat -i "$OUT/nooverwrite/trace.dat" 2>/dev/null |
	gawk '/^dropped events:/ { s += $3 } END { print s + 0 }')
((dropped > 0)) || fail nooverwrite "the buffer dropped nothing: the mode was not exercised"
grep -q "lost [0-9]* events: $dropped dropped" "$OUT/nooverwrite/trace.summary.txt" ||
	fail nooverwrite "fgdecode does not report the $dropped dropped events: $(tail -n1 "$OUT/nooverwrite/trace.summary.txt")"
(($(cat "$OUT/toggle/toggles.txt") > 0)) || fail toggle "tracing_on was never switched"
epochs=$(stat_of cpumask epochs)
((epochs <= MAX_CPUMASK_EPOCHS)) || fail cpumask "$epochs epochs (at most $MAX_CPUMASK_EPOCHS): refusals on the left-out CPU restart the recording"
# migrated PHASE: every hit of PHASE was pinned (stats "unpinned" is 0) and the allocating shells (their pids and
# the affinity flips made in flips.txt) and their children moved between CPUs (their sched_migrate_task); prints
# "N moves of the allocating tasks (F flips), 0 unpinned", fails otherwise.
migrated() {
	local pids flips moves unpinned
	unpinned=$(stat_of "$1" unpinned)
	[[ ${unpinned:-0} == 0 ]] || fail "$1" "$unpinned hits were not pinned"
	read -r pids flips <"$OUT/$1/flips.txt"
	moves=$(trace-cmd report -i "$OUT/$1/trace.dat" 2>/dev/null |
		gawk -v pids=",$pids," '/ sched_migrate_task: / && (index(pids, "," gensub(/.* pid=([0-9]+) .*/, "\\1", 1) ",") || / comm=ls /) { n++ }
			END { print n + 0 }')
	((moves > 0)) || fail "$1" "no allocating task moved between CPUs ($flips affinity flips of $pids): the mode was not exercised"
	echo "$moves moves of the allocating tasks ($flips flips), 0 unpinned"
}
migration=$(migrated migration)
typed=""
if [[ $phases == *typed* ]]; then
	[[ $(stat_of typed typed_tracepoints) == 2 ]] ||
		fail typed "stats say typed_tracepoints $(stat_of typed typed_tracepoints), not 2 (kmalloc, kmem_cache_alloc)"
	stubs=$(trace-cmd report -i "$OUT/listfunc/trace.dat" 2>/dev/null | grep -c ' function: *__probestub_' || true)
	((stubs > 0)) || fail listfunc "no function record of the stubs: the function tracer was not on them"
	typed="typed probes: $(migrated typed); beside the function tracer ($stubs function records of the stubs):"
	typed+=" $(migrated listfunc);"
fi
pins=""
if [[ $phases == *pins* ]]; then
	(($(stat_of pins unpinned) > 0)) || fail pins "no hit found the pin table full"
	pins="pins: $(stat_of pins unpinned) hits unpinned, their records flagged ($(stat_of pins after_loss) flagged);"
fi
(($(stat_of filter discarded) > 0)) || fail filter "the filter on stack_cookie discarded nothing"
filter="filter: $(stat_of filter discarded) stack records discarded at their commit, $(stat_of filter after_loss) flagged;"
# Where every stack starts: in the traced code, never in a frame of the capture's own path (the tracepoint's
# iterator, a typed probe's stub, an ftrace trampoline, the module) that trimming must drop.
for phase in $phases; do
	bad=$(gawk '/^    => / { if (!seen && ($2 ~ /^(__traceiter_|__probestub_|ftrace_|stackmap_|0x)/ || /\[stackmap\]/)) print; seen = 1; next }
		{ seen = 0 }' "$OUT/$phase/trace.decoded.txt" | sort | uniq -c | sort -rn | head -n 3)
	[[ -z $bad ]] || fail "$phase" "stacks start in the capture's own frames: $(tr -s ' \n' ' ' <<<"$bad")"
done
# The filter kept other tasks out: the instance has fewer allocations than the full recording.
allocs() {
	grep -c -E ' (kmalloc|kmem_cache_alloc): ' "$OUT/pidfilter/$1.decoded.txt" || true
}
((0 < $(allocs trace) && $(allocs trace) < $(allocs full))) ||
	fail pidfilter "the pid-filtered instance has $(allocs trace) allocations, the full recording $(allocs full)"
(($(cat "$OUT/snapshot/swaps.txt") == 3)) || fail snapshot "$(cat "$OUT/snapshot/swaps.txt") snapshot swaps, not 3"
say "nooverwrite dropped $dropped events; cpumask $epochs epochs; migration $migration; $typed $pins $filter" \
	"pidfilter: $(allocs trace) allocations of task $(cat "$OUT/pidfilter/target.txt")," \
	"$(allocs full) in the full recording; snapshot: $(cat "$OUT/snapshot/swaps.txt") swaps"
say "ok on kernel $KERNEL_LABEL ($OUT)"
