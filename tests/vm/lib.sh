# The HOST side of the VM tests: what tests/vm/test_*.sh (and record_views.sh) share, so that each of them says
# only what it checks (in the manner of elfutils' tests/test-subr.sh and git's t/test-lib.sh).  Not the guest's
# library: tests/vm/guest/lib.sh runs inside the guest (busybox sh, as /guest-common.sh); this one runs on the host
# (bash) and boots guests.  A test starts with
#
#   set -euo pipefail
#   # shellcheck source=tests/vm/lib.sh
#   . "$(dirname "$0")/lib.sh"
#   vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-NAME}"    # the kernel and its module (tests/vm/kernel.sh)
#
# and gets ROOT (the tree), PROG (the script's name without .sh, which starts every message), FGDECODE (default the
# tree's decoder/fgdecode), the functions of tests/vm/kernel.sh, and:
#   fail WHAT WHY                 "PROG: WHAT failed: WHY" on stderr, exit 1
#   say WORDS                     "PROG: WORDS"
#   run_guest GUEST [OPTIONS]     boot tests/vm/guest/GUEST.sh with $KO and the kernel's VM_ARGS, sharing $OUT
#                                 (GUEST_SHARE: another directory); a failed run fails the test
#   run_vm GUEST SHARE [OPTIONS]  the same boot with no module of its own, giving run-vm's exit status
#   decode WHAT DIR [OPTIONS]     fgdecode --cookies DIR/trace.dat into DIR/decoded.txt and DIR/summary.txt
#   all_resolved WHAT SUMMARY [WHY]
#                                 the summary has no stale and no unknown cookie
#   summary_count SUMMARY WORD    the number before WORD in an fgdecode summary (0 if none)
#   stat_value NAME STATS         a counter of the module's stats file (-1 if none)
#   stats_add_up WHAT STATS       the stats identity: lookups = hits + inserts + fallbacks, lookups > 0
# shellcheck shell=bash disable=SC2034 # ROOT, PROG, FGDECODE are for the sourcing test

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROG=$(basename "$0" .sh)
FGDECODE=${FGDECODE:-$ROOT/decoder/fgdecode}
# shellcheck source=tests/vm/kernel.sh
. "$ROOT/tests/vm/kernel.sh"

# fail WHAT WHY: the test failed at WHAT, because WHY.
fail() {
	echo "$PROG: $1 failed: $2" >&2
	exit 1
}

# say WORDS: one line of the test's report.
say() {
	echo "$PROG: $*"
}

# run_vm GUEST SHARE [run-vm options...]: tests/vm/run-vm.sh with the kernel's VM_ARGS (vm_kernel_setup; none
# before it), the guest script tests/vm/guest/GUEST.sh and SHARE as /share; run-vm's exit status.
run_vm() {
	local guest=$1 share=$2
	shift 2
	"$ROOT/tests/vm/run-vm.sh" ${VM_ARGS[@]+"${VM_ARGS[@]}"} --guest-script "$ROOT/tests/vm/guest/$guest.sh" \
		--share "$share" "$@"
}

# run_guest GUEST [run-vm options...]: run_vm with the test's module $KO, sharing $OUT (or $GUEST_SHARE); fails
# the test, naming the console, when run-vm fails (a kernel report, a hang, the guest script's own failure).
run_guest() {
	local guest=$1 share=${GUEST_SHARE:-$OUT}
	shift
	run_vm "$guest" "$share" --module "$KO" "$@" || fail "guest run" "run-vm exited $? (see $share/console.log)"
}

# decode WHAT DIR [fgdecode options...]: `fgdecode --cookies` of DIR/trace.dat into DIR/decoded.txt, its summary
# into DIR/summary.txt; fails WHAT when fgdecode does.
decode() {
	local what=$1 dir=$2
	shift 2
	"$FGDECODE" --cookies "$@" "$dir/trace.dat" >"$dir/decoded.txt" 2>"$dir/summary.txt" ||
		fail "$what" "fgdecode exited $? ($(head -n1 "$dir/summary.txt"))"
}

# all_resolved WHAT SUMMARY [WHY]: fgdecode's summary file SUMMARY reports no stale and no unknown cookie; else
# fails WHAT with WHY (default: the summary).
all_resolved() {
	grep -q ' 0 stale, 0 unknown,' "$2" || fail "$1" "${3:-unresolved cookies: $(cat "$2")}"
}

# summary_count SUMMARY WORD: the number before WORD ("12 resolved,", "3 orphan,") in fgdecode's summary file
# SUMMARY; 0 when it has none (fgdecode leaves out some counts that are 0).
summary_count() {
	gawk -v name="$2" '{ for (i = 2; i <= NF; i++) { w = $i; sub(/,$/, "", w)
		if (w == name && $(i - 1) ~ /^[0-9]+$/) { print $(i - 1); exit } } }' "$1" |
		{ read -r n || n=0; echo "${n:-0}"; }
}

# stat_value NAME STATS: the value of the "NAME VALUE" line of the module's stats file STATS, -1 when it has none.
stat_value() {
	gawk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print -1 }' "$2"
}

# stats_add_up WHAT STATS: every lookup of the stats file STATS was a hit, an insert or a fallback, and there was
# at least one; prints the identity, fails WHAT otherwise.
stats_add_up() {
	local lookups hits inserts fallbacks
	lookups=$(stat_value lookups "$2") hits=$(stat_value hits "$2")
	inserts=$(stat_value inserts "$2") fallbacks=$(stat_value fallbacks "$2")
	((lookups > 0 && lookups == hits + inserts + fallbacks)) ||
		fail "$1" "lookups $lookups != hits $hits + inserts $inserts + fallbacks $fallbacks"
	say "$1: $lookups lookups = $hits hits + $inserts inserts + $fallbacks fallbacks"
}
