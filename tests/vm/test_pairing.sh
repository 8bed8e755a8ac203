#!/bin/bash
# A stack is never shown under another event, in the recording modes that lose records (guest/pairing.sh
# records them; see its header): a small non-overwriting buffer behind a slow reader, tracing_on toggled in a
# flight recorder, a CPU left out of tracing_cpumask, tasks moved between CPUs by pinned CPU hogs.
#
# The oracle (check_pairing.awk): every kmem:kmalloc or kmem:kmem_cache_alloc event fgdecode shows with a
# stack has its call_site among the stack's frames.  Each phase must check at least MIN_CHECKED stacks and
# find none wrong, and trace-cmd report with the plugin must show the same stack under each event
# (tests/plugin/check_report.sh). Also: fgdecode reports the ring buffer's dropped events where trace-cmd's
# CPU stats have them (nooverwrite); leaving a CPU out does not start an epoch per cookie (cpumask); every
# hit was pinned (migration: stats "unpinned" is 0), and tasks did move (sched_migrate_task of the
# allocating tasks). Prints one line per phase.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/vm/kernel.sh
. "$ROOT/tests/vm/kernel.sh"
vm_kernel_setup test_pairing "${OUT:-$ROOT/build/vm-pairing}"
FGDECODE=$ROOT/decoder/fgdecode
MIN_CHECKED=${MIN_CHECKED:-500}
# Epochs a recording may start with one CPU refusing every write: one per consumer and CPU that comes back,
# not one per cookie.
MAX_CPUMASK_EPOCHS=20

fail() {
	echo "test_pairing: $1 failed: $2" >&2
	exit 1
}

stat_of() {
	gawk -v k="$2" '$1 == k { print $2 }' "$OUT/$1/stats.txt"
}

# check PHASE: the oracle and the plugin cross-check on PHASE's trace; prints the figures.
check() {
	local dir=$OUT/$1 line
	"$FGDECODE" "$dir/trace.dat" >"$dir/decoded.txt" 2>"$dir/summary.txt" ||
		fail "$1" "fgdecode exited $? ($(head -n1 "$dir/summary.txt"))"
	gawk -f "$ROOT/tests/vm/check_pairing.awk" "$dir/decoded.txt" >"$dir/oracle.txt" ||
		fail "$1" "a stack under another event: $(sed -n 2,3p "$dir/oracle.txt" | tr -s ' ' | tr '\n' ' ')"
	line=$(head -n1 "$dir/oracle.txt")
	(($(gawk '{ print $2 }' <<<"$line") >= MIN_CHECKED)) ||
		fail "$1" "only $(gawk '{ print $2 }' <<<"$line") stacks checked (at least $MIN_CHECKED): $line"
	"$ROOT/tests/plugin/check_report.sh" "$dir/trace.dat" >"$dir/report.txt" 2>&1 ||
		fail "$1" "trace-cmd report with the plugin differs from fgdecode: $(tail -n1 "$dir/report.txt")"
	echo "test_pairing: $1: $line; $(grep -o '[0-9]* orphan' "$dir/summary.txt" || echo 0 orphan)," \
		"$(grep -o '[0-9]* after a ring buffer loss' "$dir/summary.txt" || echo 0 after a loss);" \
		"$(grep -o 'lost [0-9]* events' "$dir/summary.txt" || echo 'lost 0 events') in the ring buffer"
}

mkdir -p "$OUT"
"$ROOT/tests/vm/run-vm.sh" --module "$KO" --guest-script "$ROOT/tests/vm/guest/pairing.sh" \
	--share "$OUT" --timeout 600 ${VM_ARGS[@]+"${VM_ARGS[@]}"} || fail guest "run-vm exited $? (console: $OUT/console.log)"

for phase in nooverwrite toggle cpumask migration; do
	check "$phase"
done

# The buffer refused writes: fgdecode says how many, as trace-cmd's CPU stats do.
dropped=$(trace-cmd report --stat -i "$OUT/nooverwrite/trace.dat" 2>/dev/null |
	gawk '/^dropped events:/ { s += $3 } END { print s + 0 }')
((dropped > 0)) || fail nooverwrite "the buffer dropped nothing: the mode was not exercised"
grep -q "lost [0-9]* events: $dropped dropped" "$OUT/nooverwrite/summary.txt" ||
	fail nooverwrite "fgdecode does not report the $dropped dropped events: $(tail -n1 "$OUT/nooverwrite/summary.txt")"
(($(cat "$OUT/toggle/toggles.txt") > 0)) || fail toggle "tracing_on was never switched"
epochs=$(stat_of cpumask epochs)
((epochs <= MAX_CPUMASK_EPOCHS)) || fail cpumask "$epochs epochs (at most $MAX_CPUMASK_EPOCHS): refusals on the left-out CPU restart the recording"
unpinned=$(stat_of migration unpinned)
[[ ${unpinned:-0} == 0 ]] || fail migration "$unpinned hits were not pinned"
moves=$(trace-cmd report -i "$OUT/migration/trace.dat" -F sched:sched_migrate_task 2>/dev/null | grep -c 'comm=ls' || true)
((moves > 0)) || fail migration "no allocating task moved between CPUs: the mode was not exercised"
echo "test_pairing: nooverwrite dropped $dropped events; cpumask $epochs epochs; migration $moves moves of ls, 0 unpinned"
echo "test_pairing: ok on kernel $KERNEL_LABEL ($OUT)"
