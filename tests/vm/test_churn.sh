#!/bin/bash
# Consumers that come and go under running probes (#37 item 6: a consumer's entry is taken again only after
# the probes and window measurements of the one before are done).  guest/churn.sh (see its header) creates,
# records into, resets and removes 12 instances and runs 3 trace-cmd records back to back, beside a flight
# recorder and a looping workload, on 2 CPUs.  Checked here: every step completed without a kernel report
# (run-vm.sh; on the KCSAN kernel, STACKMAP_KERNEL=kcsan, no data race with an access in the module), each
# consumer started an epoch and each reset a generation (stats), every cookie of each recording resolves, and
# the flight recording decodes.
# Usage: [STACKMAP_KERNEL=NAME] tests/vm/test_churn.sh
set -euo pipefail

# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/lib.sh"
vm_kernel_setup "$PROG" "${OUT:-$ROOT/build/vm-churn}"
ROUNDS=12
RECORDS=3

rm -rf "$OUT"
mkdir -p "$OUT"
run_guest churn --smp 2 --timeout 300
[[ $(cat "$OUT/result" 2>/dev/null) == ok ]] || fail "guest run" "the guest steps did not complete"
epochs=$(stat_value epochs "$OUT/stats.txt")
resets=$(stat_value resets "$OUT/stats.txt")
((epochs >= ROUNDS + RECORDS)) || fail stats "epochs $epochs: fewer than the $((ROUNDS + RECORDS)) consumers that started"
((resets >= ROUNDS + RECORDS)) || fail stats "resets $resets: fewer than the $((ROUNDS + RECORDS)) done"
for ((j = 0; j < RECORDS; j++)); do
	mkdir -p "$OUT/rec$j"
	"$FGDECODE" "$OUT/rec$j.dat" >"$OUT/rec$j/decoded.txt" 2>"$OUT/rec$j/summary.txt" ||
		fail "rec$j" "fgdecode exited $? ($(head -n1 "$OUT/rec$j/summary.txt"))"
	all_resolved "rec$j" "$OUT/rec$j/summary.txt" "cookies without a definition: $(head -n1 "$OUT/rec$j/summary.txt")"
	say "rec$j: $(grep -o '[0-9]* cookies, [0-9]* resolved' "$OUT/rec$j/summary.txt")"
done
mkdir -p "$OUT/flight"
"$FGDECODE" "$OUT/flight.dat" >"$OUT/flight/decoded.txt" 2>"$OUT/flight/summary.txt" ||
	fail flight "fgdecode exited $? ($(head -n1 "$OUT/flight/summary.txt"))"
say "flight: $(head -n1 "$OUT/flight/summary.txt")"
say "ok on kernel $KERNEL_LABEL: $ROUNDS instances and $RECORDS recordings came and went; epochs $epochs, resets $resets ($OUT)"
